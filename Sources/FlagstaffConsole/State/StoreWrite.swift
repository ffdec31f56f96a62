import Flagstaff

/// One change to the override store, as the console asks for it: the payload of the one write effect
/// (``ConsoleEffect/write(_:)``), and, until the runner reports it saved or failed, an entry of
/// ``ConsoleState/pendingWrites`` (it may be waiting for another process's lock on the store).
package enum StoreWrite: Sendable, Equatable {
    /// Values written together, for flags (`on`/`off`) and typed settings alike (`nil` removes an override); set
    /// values expire `expiresIn` seconds after the write (`nil`: permanent).
    case values([String: OverrideValue?], expiresIn: Double? = nil)
    /// One value (`nil`: removal) written to every member of a set (a change to the marked flags), checked as the
    /// change was built (`on`/`off` only for on/off members).
    case members(MemberSet, value: OverrideValue?)
    /// Every override reset (`R`).
    case resetAll
    /// An undo (`u`) or a redo (`U`) from the change history: its keys are known once it is performed; the result
    /// also comes back as ``ConsoleEvent/historyStepped(_:)``.
    case history(redo: Bool)
    /// A profile applied (one undo step); `changes` is what the picker showed it would change.
    case profile(Profile, replace: Bool, changes: [String: OverrideValue?])

    /// The override this write gives `key` (a member with `ordinal`, if any), if it changes that flag (`resetAll`:
    /// `.featureDefault` for every flag).
    package func override(forKey key: String, ordinal: Int?) -> OverrideState? {
        change(forKey: key, ordinal: ordinal).map { $0.overrideValue?.overrideState ?? .featureDefault }
    }

    /// What this write does to the override of `key` (a member with `ordinal`, if any), or `nil` when it does not
    /// touch `key`.
    package func change(forKey key: String, ordinal: Int?) -> WrittenOverride? {
        switch self {
        case .values(let changes, _), .profile(_, _, let changes): changes[key].map(WrittenOverride.init)
        case .members(let members, let value): ordinal.map(members.contains) == true ? WrittenOverride(value) : nil
        case .resetAll: .removed
        case .history: nil
        }
    }
}

/// What a store write does to one key's override.
package enum WrittenOverride: Sendable, Equatable {
    /// The override is set to this value.
    case value(OverrideValue)
    /// The override is removed (the member falls back to its default).
    case removed

    /// `.value(value)`, or `.removed` for `nil`.
    package init(_ value: OverrideValue?) {
        self = value.map { .value($0) } ?? .removed
    }

    /// The value set, or `nil` for a removal.
    package var overrideValue: OverrideValue? {
        if case .value(let value) = self { value } else { nil }
    }
}

/// Who holds the store's lock while a write waits for it, as the effect runner last reported.
package struct StoreLockWait: Sendable, Equatable {
    /// The holder as its lock record describes it (`pid 4242 (flagstaff set blueText on)`).
    package var holder: String
    /// How long the oldest pending write has waited.
    package var waited: Duration
}
