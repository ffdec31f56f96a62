import Flagstaff

/// Everything the console shows about one flag, read at one moment.
package struct ConsoleFlag: Sendable {
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

    /// Creates a flag snapshot.
    package init(
        key: String, label: String, description: String? = nil, groupPath: [String] = [], kind: FeatureKind = .static,
        requiresRestart: Bool = false, resolution: Resolution, defaultValue: Bool, override: OverrideState,
        launchValue: Bool
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
    }

    /// The effective value.
    package var value: Bool { resolution.value }
    /// Whether the flag has an override.
    package var isOverridden: Bool { override != .featureDefault }
}
