import Flagstaff

/// The file stores a command opened, so that a change saved without its journal line is said on standard error
/// once the command has run (the journal never blocks a change, but `history` and `undo` will not see it).
final class OpenedStores: Sendable {
    /// The stores of the command running in this task (``FlagstaffCommand/execute(_:)`` sets it).
    @TaskLocal static var current: OpenedStores?

    private let stores = AnnotatedMutex<[FileOverrideStore]>([])

    /// Records a store the command opened.
    func add(_ store: FileOverrideStore) {
        stores.withLock { $0.append(store) }
    }

    /// Notes each store whose last journal append failed: which journal, and why.
    func reportJournalFailures() {
        for store in stores.withLock({ $0 }) {
            guard let error = store.journalError else { continue }
            let detail: String
            if error.isUnwritable {
                detail = "\(error.path): \(error.reason)"
            } else {
                detail = "\(error)"
            }
            StandardStreams.note(
                "the change to \(store.url.path) was saved, but its journal could not be written (\(detail)); `flagstaff history` and `undo` will not show it"
            )
        }
    }
}
