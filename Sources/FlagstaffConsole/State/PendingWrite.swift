import Flagstaff

/// A store write the console asked for and the effect runner has not yet reported saved or failed (it may be
/// waiting for another process's lock on the store).
package enum PendingWrite: Sendable, Equatable {
    /// Overrides written together (`o`, `x`, `r`, `Space`, the restart prompt's undo).
    case overrides([String: OverrideState])
    /// Values written together (typed settings; the restart prompt's undo). `nil` removes an override.
    case values([String: OverrideValue?])
    /// One value (`nil`: removal) written to every member of a set (a change to the marked flags).
    case members(MemberSet, value: OverrideValue?)
    /// Every override reset (`R`).
    case resetAll
    /// An undo (`u`) or a redo (`U`) from the change history: its keys are known once it is performed.
    case history(redo: Bool)

    /// The override this write gives `key` (a member with `ordinal`, if any), if it changes that flag (`resetAll`:
    /// `.featureDefault` for every flag).
    package func override(forKey key: String, ordinal: Int?) -> OverrideState? {
        switch self {
        case .overrides(let changes): changes[key]
        case .values(let changes): changes[key].map { $0?.overrideState ?? .featureDefault }
        case .members(let members, let value):
            ordinal.map(members.contains) == true ? value?.overrideState ?? .featureDefault : nil
        case .resetAll: .featureDefault
        case .history: nil
        }
    }

    /// The override value this write gives `key` (a member with `ordinal`, if any; `.some(nil)`: it removes the
    /// override), or `nil` when the write does not touch `key`.
    package func value(forKey key: String, ordinal: Int?) -> OverrideValue?? {
        switch self {
        case .overrides(let changes): changes[key].map { OverrideValue($0) }
        case .values(let changes): changes[key]
        case .members(let members, let value): ordinal.map(members.contains) == true ? .some(value) : nil
        case .resetAll: .some(nil)
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
