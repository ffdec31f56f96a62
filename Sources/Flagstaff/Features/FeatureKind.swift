/// Where a flag's default value (the value when it has no override) comes from.
public enum FeatureKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A fixed default given at declaration.
    case `static`
    /// A closure computed on read (`DynamicFeature`).
    case dynamic
    /// On only in some build targets (`Feature(enabledIn:)`).
    case buildTarget
    /// A value from a remote-config service, falling back to a static default.
    case remote
}
