import Flagstaff

/// One change to the override store, as the console asks for it: the payload of the one write effect
/// (``ConsoleEffect/write(_:)``), and, until the runner reports it saved or failed, an entry of
/// ``ConsoleState/pendingWrites`` (it may be waiting for another process's lock on the store).
package enum StoreWrite: Sendable, Equatable {
    /// Edits written together, for flags (`on`/`off`) and typed settings alike; set values expire `expiresIn`
    /// seconds after the write (`nil`: permanent).
    case values([String: OverrideEdit], expiresIn: Double? = nil)
    /// One edit written to every member of a set (a change to the marked flags), checked as the change was built
    /// (`on`/`off` only for on/off members).
    case members(MemberSet, edit: OverrideEdit)
    /// Every override reset (`R`).
    case resetAll
    /// An undo (`u`) or a redo (`U`) from the change history: its keys are known once it is performed; the result
    /// also comes back as ``ConsoleEvent/historyStepped(_:)``.
    case history(redo: Bool)
    /// A profile applied (one undo step); `changes` is what the picker showed it would change.
    case profile(Profile, replace: Bool, changes: [String: OverrideEdit])

    /// The override this write gives `key` (a member with `ordinal`, if any), if it changes that flag (`resetAll`:
    /// `.featureDefault` for every flag).
    package func override(forKey key: String, ordinal: Int?) -> OverrideState? {
        change(forKey: key, ordinal: ordinal).map { $0.value?.overrideState ?? .featureDefault }
    }

    /// What this write does to the override of `key` (a member with `ordinal`, if any), or `nil` when it does not
    /// touch `key`.
    package func change(forKey key: String, ordinal: Int?) -> OverrideEdit? {
        switch self {
        case .values(let changes, _), .profile(_, _, let changes): changes[key]
        case .members(let members, let edit): ordinal.map(members.contains) == true ? edit : nil
        case .resetAll: .remove
        case .history: nil
        }
    }
}

/// Who holds the store's lock while a write waits for it, as the effect runner last reported.
package struct StoreLockWait: Sendable, Equatable {
    /// The holder as its lock record describes it (`pid 4242 (flagstaff set blueText on)`).
    package var holder: String
    /// How long the oldest pending write has waited.
    package var waited: Duration
}
