/// How a ``FileOverrideStore`` keeps its change history (the journal beside the file).
package struct JournalOptions: Sendable, Equatable {
    /// The default size at which the journal is rotated: 8 MiB (about 40,000 changed keys).
    package static let defaultMaxBytes = 8 << 20

    /// When the journal reaches this size (in bytes) before a change is appended, it is renamed to
    /// `<journal>.1` (replacing the previous one, whose changes are dropped) and a new journal is started. The
    /// history holds between one and two times this size.
    package var maxBytes: Int
    /// The origin recorded for changes whose write gives none (``WriteParameters/note``; default `app`).
    package var origin: ChangeOrigin

    /// Creates options.
    /// - Parameters:
    ///   - maxBytes: the rotation size (default 8 MiB; at least 4 KiB is used).
    ///   - origin: the default origin of this store's changes.
    package init(maxBytes: Int = JournalOptions.defaultMaxBytes, origin: ChangeOrigin = .app) {
        self.maxBytes = max(maxBytes, 4096)
        self.origin = origin
    }
}
