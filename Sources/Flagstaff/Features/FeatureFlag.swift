/// A one-line flag: `@FeatureFlag var darkMode = false` declares a `Feature` keyed `darkMode` (no leading
/// underscore) whose default is the initial value.
///
/// Reading the property gives the effective value; `$darkMode` is the underlying `Feature` (to override it,
/// read its resolution, or pass it to `withFeature`).
@propertyWrapper
public struct FeatureFlag: Sendable {
    /// The flag behind the property.
    public let feature: Feature

    /// Declares a flag whose default is the property's initial value.
    /// - Parameters:
    ///   - wrappedValue: the default.
    ///   - key: an explicit store key; `nil` derives it from the property name.
    ///   - label: a display label; `nil` humanises the property name.
    ///   - description: a human description.
    ///   - requiresRestart: whether a change only takes effect after the app restarts.
    public init(
        wrappedValue: Bool, key: String? = nil, label: String? = nil, description: String? = nil,
        requiresRestart: Bool = false
    ) {
        feature = Feature(
            key: key, label: label, description: description,
            default: wrappedValue, requiresRestart: requiresRestart)
    }

    /// The effective value.
    public var wrappedValue: Bool { feature.enabled }

    /// The underlying flag.
    public var projectedValue: Feature { feature }
}
