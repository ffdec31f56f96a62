/// One compiled feature, immutable once built.
final class CompiledFeature: Sendable {
    /// A compiled dependency on a parent feature.
    struct Dependency: Sendable {
        let feature: String
        let expectEnabled: Bool
        let variants: Set<String>
    }

    let name: String
    let enabled: Bool
    let strategies: [CompiledStrategy]
    let variants: VariantSelector?
    let dependencies: [Dependency]
    let info: UnleashFeatureInfo
    /// Why the whole feature is off although switched on (an unusable definition), for explanations.
    let unusableReason: String?

    init(
        name: String, enabled: Bool, strategies: [CompiledStrategy], variants: VariantSelector?,
        dependencies: [Dependency], info: UnleashFeatureInfo, unusableReason: String? = nil
    ) {
        self.name = name
        self.enabled = enabled
        self.strategies = strategies
        self.variants = variants
        self.dependencies = dependencies
        self.info = info
        self.unusableReason = unusableReason
    }
}
