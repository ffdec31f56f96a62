import Flagstaff

/// A store write the console asked for and the effect runner has not yet reported saved or failed (it may be
/// waiting for another process's lock on the store).
package enum PendingWrite: Sendable, Equatable {
    /// Overrides written together (`o`, `x`, `r`, `Space`, the restart prompt's undo).
    case overrides([String: OverrideState])
    /// Every override reset (`R`).
    case resetAll

    /// The override this write gives `key`, if it changes that flag (`resetAll`: `.featureDefault` for every
    /// flag).
    package func override(forKey key: String) -> OverrideState? {
        switch self {
        case .overrides(let changes): changes[key]
        case .resetAll: .featureDefault
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
