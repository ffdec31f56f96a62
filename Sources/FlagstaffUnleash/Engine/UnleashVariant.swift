/// The variant a flag resolves to for a context, in the shape Unleash SDKs return it.
///
/// When the flag is unknown or off for the context the result is the `disabled` variant with `enabled == false`;
/// ``featureEnabled`` then tells "the flag is on but has no variants" (`true`) from "the flag is off" (`false`).
/// JSON uses the specification's key `feature_enabled`.
public struct UnleashVariant: Sendable, Hashable, Codable {
    /// The variant's name, or `disabled`.
    public var name: String
    /// Whether a real variant was chosen.
    public var enabled: Bool
    /// Whether the flag itself is on for the context.
    public var featureEnabled: Bool
    /// The variant's payload, when it has one.
    public var payload: UnleashPayload?

    private enum CodingKeys: String, CodingKey {
        case name, enabled
        case featureEnabled = "feature_enabled"
        case payload
    }

    /// Creates a variant.
    /// - Parameters:
    ///   - name: The variant name.
    ///   - enabled: Whether a real variant was chosen.
    ///   - featureEnabled: Whether the flag is on.
    ///   - payload: The payload, if any.
    public init(name: String, enabled: Bool, featureEnabled: Bool, payload: UnleashPayload? = nil) {
        self.name = name
        self.enabled = enabled
        self.featureEnabled = featureEnabled
        self.payload = payload
    }

    /// The `disabled` variant.
    /// - Parameter featureEnabled: Whether the flag itself is on.
    /// - Returns: A variant named `disabled` with `enabled == false` and no payload.
    public static func disabled(featureEnabled: Bool) -> UnleashVariant {
        UnleashVariant(name: "disabled", enabled: false, featureEnabled: featureEnabled)
    }
}
