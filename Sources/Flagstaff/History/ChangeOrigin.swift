/// Where a change to an override store came from, as the change history records it: `app`, `cli`, `console`,
/// `import`, `profile`, `undo`, `redo`, or any other word a tool chooses.
///
/// A file store records ``current`` when it is set (bind it around a write), else the store's
/// ``JournalOptions/origin`` (`app` unless the store was created otherwise):
///
/// ```swift
/// try ChangeOrigin.$current.withValue(.import) { try registry.setOverrideValues(changes) }
/// ```
public struct ChangeOrigin: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The word recorded in the journal.
    public let rawValue: String

    /// Creates an origin from its word.
    /// - Parameter rawValue: a short word such as `cli`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an origin from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// An application using the library (the default).
    public static let app: ChangeOrigin = "app"
    /// A `flagstaff` command.
    public static let cli: ChangeOrigin = "cli"
    /// The interactive console.
    public static let console: ChangeOrigin = "console"
    /// `flagstaff import`.
    public static let `import`: ChangeOrigin = "import"
    /// Applying a profile.
    public static let profile: ChangeOrigin = "profile"
    /// Undoing a change.
    public static let undo: ChangeOrigin = "undo"
    /// Redoing an undone change.
    public static let redo: ChangeOrigin = "redo"
    /// Overrides removed because their expiry time passed (``OverrideExpiry``).
    public static let expiry: ChangeOrigin = "expiry"

    /// The origin recorded for writes made in the current task, overriding the store's default.
    @TaskLocal public static var current: ChangeOrigin?

    /// The word.
    public var description: String { rawValue }
}

/// What the journal records about a change besides its origin: the profile applied, the change undone or
/// redone. Set by the history and profile code around their writes.
package struct ChangeAnnotation: Sendable, Equatable {
    /// The origin, when the writer sets it (else ``ChangeOrigin/current``, else the store's default).
    package var origin: ChangeOrigin?
    /// The profile applied, for `profile` changes.
    package var profile: String?
    /// The change this one undoes.
    package var undoes: String?
    /// The change this one re-applies.
    package var redoes: String?

    package init(
        origin: ChangeOrigin? = nil, profile: String? = nil, undoes: String? = nil, redoes: String? = nil
    ) {
        self.origin = origin
        self.profile = profile
        self.undoes = undoes
        self.redoes = redoes
    }

    /// The annotation for writes made in the current task.
    @TaskLocal package static var current: ChangeAnnotation?
}
