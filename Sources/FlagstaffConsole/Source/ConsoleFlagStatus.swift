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
    /// The local override as JSON for any member (`"on"`/`"off"` for a flag), or `nil`.
    package var overrideValue: OverrideValue?
    /// Whether the value is on/off (flags and boolean settings): only those are in the On and Off scopes.
    package var isBoolean: Bool

    /// Creates a flag's status.
    package init(key: String, value: Bool, override: OverrideState, isPendingRestart: Bool) {
        self.key = key
        self.value = value
        self.override = override
        self.isPendingRestart = isPendingRestart
        self.overrideValue = OverrideValue(override)
        self.isBoolean = true
    }

    /// Creates a typed setting's status.
    /// - Parameters:
    ///   - key: the store key.
    ///   - currentValue: the effective value.
    ///   - overrideValue: the local override, or `nil`.
    ///   - isBoolean: whether the setting is on/off.
    ///   - isPendingRestart: requires a restart and its value differs from launch.
    package init(
        key: String, currentValue: OverrideValue, overrideValue: OverrideValue?, isBoolean: Bool,
        isPendingRestart: Bool
    ) {
        self.key = key
        self.value = isBoolean && currentValue == .on
        self.override = .featureDefault
        self.isPendingRestart = isPendingRestart
        self.overrideValue = overrideValue
        self.isBoolean = isBoolean
    }

    /// Whether the flag or setting has an override.
    package var isOverridden: Bool { overrideValue != nil }

    /// Whether the flag is listed in `scope`.
    package func isIncluded(in scope: SearchScope) -> Bool {
        switch scope {
        case .all: true
        case .enabled: isBoolean && value
        case .disabled: isBoolean && !value
        case .overridden: isOverridden
        }
    }
}
