import Flagstaff

/// Everything the console shows about one flag or typed setting, read at one moment.
///
/// For a typed setting ``setting`` holds its values; the on/off fields then describe it as a flag would
/// (``value`` is `true` only for a boolean setting that is on, ``override`` is `featureDefault`), so code that
/// only knows flags treats it as an unforced one.
package struct ConsoleFlag: Sendable, Equatable {
    /// The store key.
    package var key: String
    /// The display label (unsanitised).
    package var label: String
    /// The description, if any (unsanitised).
    package var description: String?
    /// The labels of the enclosing groups, outermost first.
    package var groupPath: [String]
    /// Where the default comes from.
    package var kind: FeatureKind
    /// Whether a change only takes effect after a restart.
    package var requiresRestart: Bool
    /// The effective value, its source and the chain of sources considered.
    package var resolution: Resolution
    /// The value without any override (what `featureDefault` gives).
    package var defaultValue: Bool
    /// The override.
    package var override: OverrideState
    /// The value at launch.
    package var launchValue: Bool
    /// A typed setting's values, or `nil` for an on/off flag.
    package var setting: ConsoleSetting?
    /// When the override stops applying, or `nil` for a permanent override or none.
    package var expiry: OverrideExpiry?
    /// The expiry of a stored override that has expired (no longer applied, removed at the next write), or `nil`.
    package var expiredOverride: OverrideExpiry?
    /// The flag's position among all flags (``ConsoleFlagSource/ordinal(forKey:)``): marks are kept by it.
    package var ordinal: Int?
    /// What the clients of an attached flag server reported evaluating for it, or `nil`.
    package var servedSummary: String?
    /// Requires a restart and its value differs from launch (the source sets it from the member; by default
    /// ``requiresRestart`` and ``value`` differs from ``launchValue``).
    package var isPendingRestart: Bool

    /// Creates a flag snapshot.
    package init(
        key: String, label: String, description: String? = nil, groupPath: [String] = [], kind: FeatureKind = .static,
        requiresRestart: Bool = false, resolution: Resolution, defaultValue: Bool, override: OverrideState,
        launchValue: Bool, setting: ConsoleSetting? = nil
    ) {
        self.key = key
        self.label = label
        self.description = description
        self.groupPath = groupPath
        self.kind = kind
        self.requiresRestart = requiresRestart
        self.resolution = resolution
        self.defaultValue = defaultValue
        self.override = override
        self.launchValue = launchValue
        self.setting = setting
        self.isPendingRestart = requiresRestart && resolution.value != launchValue
    }

    /// A typed setting's snapshot (the on/off fields filled as described above).
    /// - Parameter member: the setting.
    package init(setting member: AnyFeature) {
        let setting = ConsoleSetting(member)
        self.init(
            key: member.key, label: member.label, description: member.description, groupPath: member.groupPath,
            kind: member.kind, requiresRestart: member.requiresRestart,
            resolution: .single(setting.value == .on, from: setting.explanation.source),
            defaultValue: setting.valueWithoutOverride == .on, override: .featureDefault,
            launchValue: setting.launchValue == .on, setting: setting)
        isPendingRestart = member.isPendingRestart
    }

    /// The effective value.
    package var value: Bool { resolution.value }
    /// Whether the flag or setting has an override.
    package var isOverridden: Bool { override != .featureDefault || setting?.override != nil }

    /// The local override as JSON (`"on"`/`"off"` for a flag), or `nil`.
    package var overrideValue: OverrideValue? { setting.map(\.override) ?? OverrideValue(override) }

    /// Its value facts: what the counts and the scopes use.
    package var status: ConsoleFlagStatus {
        guard let setting else {
            return ConsoleFlagStatus(key: key, value: value, override: override, isPendingRestart: isPendingRestart)
        }
        return ConsoleFlagStatus(
            key: key, currentValue: setting.value, overrideValue: setting.override, isBoolean: setting.isBoolean,
            isPendingRestart: isPendingRestart)
    }
}
