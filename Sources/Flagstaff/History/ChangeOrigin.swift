/// Where a change to an override store came from, as the change history records it: `app`, `cli`, `console`,
/// `import`, `profile`, `undo`, `redo`, or any other word a tool chooses.
///
/// A file store records the origin a write gives (``WriteParameters``), else the store's ``JournalOptions/origin``
/// (`app` unless the store was created otherwise):
///
/// ```swift
/// try registry.write(OverrideChange(changes), parameters: WriteParameters(origin: .import))
/// ```
package struct ChangeOrigin: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The word recorded in the journal.
    package let rawValue: String

    /// Creates an origin from its word.
    /// - Parameter rawValue: a short word such as `cli`.
    package init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an origin from a string literal.
    package init(stringLiteral value: String) { self.rawValue = value }

    /// An application using the library (the default).
    package static let app: ChangeOrigin = "app"
    /// A `flagstaff` command.
    package static let cli: ChangeOrigin = "cli"
    /// The interactive console.
    package static let console: ChangeOrigin = "console"
    /// `flagstaff import`.
    package static let `import`: ChangeOrigin = "import"
    /// Applying a profile.
    package static let profile: ChangeOrigin = "profile"
    /// Undoing a change.
    package static let undo: ChangeOrigin = "undo"
    /// Redoing an undone change.
    package static let redo: ChangeOrigin = "redo"
    /// Overrides removed because their expiry time passed (``OverrideExpiry``).
    package static let expiry: ChangeOrigin = "expiry"

    /// The word.
    package var description: String { rawValue }
}

/// What the journal records about a change besides its origin: the profile applied, the change undone or
/// redone, given with a write (``WriteParameters/note``).
package struct ChangeAnnotation: Sendable, Equatable {
    /// The origin, when the writer sets it (else the store's default, ``JournalOptions/origin``).
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
}
