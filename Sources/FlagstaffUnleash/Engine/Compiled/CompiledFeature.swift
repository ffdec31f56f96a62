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

    init(
        name: String, enabled: Bool, strategies: [CompiledStrategy], variants: VariantSelector?,
        dependencies: [Dependency], info: UnleashFeatureInfo
    ) {
        self.name = name
        self.enabled = enabled
        self.strategies = strategies
        self.variants = variants
        self.dependencies = dependencies
        self.info = info
    }
}
