/// What the engine's state says about one feature, for listing it (CLI, registry, console).
public struct UnleashFeatureInfo: Sendable, Hashable {
    /// The feature's name.
    public let name: String
    /// The feature's on/off switch in its environment, before strategies.
    public let enabled: Bool
    /// The description, if the server sent one.
    public let description: String?
    /// The feature type (`release`, `experiment`, …), if sent.
    public let type: String?
    /// The project, if sent.
    public let project: String?
    /// Whether the server marked the feature stale.
    public let stale: Bool
    /// Whether evaluations of this feature should emit impression events.
    public let impressionData: Bool
}
