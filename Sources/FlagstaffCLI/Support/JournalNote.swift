import Flagstaff

/// Says on standard error that a change was saved without its journal lines: the journal never blocks a change, but
/// `history` and `undo` will not see it. Every command that writes gives its write's outcome here.
enum JournalNote {
    /// Notes `error`, the journal's failure a write's receipt carries (nothing for `nil`).
    static func report(_ error: OverrideStoreError?) {
        guard let error else { return }
        let detail = error.isUnwritable ? "\(error.path): \(error.reason)" : "\(error)"
        StandardStreams.note(
            "the change was saved, but its journal could not be written (\(detail)); `flagstaff history` and `undo` will not show it"
        )
    }
}
