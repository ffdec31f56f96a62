import Flagstaff

/// The value facts of one flag: enough to count overrides and pending restarts and to apply scopes.
package struct ConsoleFlagStatus: Sendable, Equatable {
    /// The store key.
    package var key: String
    /// The effective value.
    package var value: Bool
    /// The override (`featureDefault` when none).
    package var override: OverrideState
    /// Requires a restart and its value differs from launch.
    package var isPendingRestart: Bool

    /// Creates a status.
    package init(key: String, value: Bool, override: OverrideState, isPendingRestart: Bool) {
        self.key = key
        self.value = value
        self.override = override
        self.isPendingRestart = isPendingRestart
    }

    /// Whether the flag is listed in `scope`.
    package func isIncluded(in scope: SearchScope) -> Bool {
        switch scope {
        case .all: true
        case .enabled: value
        case .disabled: !value
        case .overridden: override != .featureDefault
        }
    }
}
