/// One compiled strategy: its rule, its constraints (segment constraints appended) and its variants.
///
/// A class, not a struct, so walking a feature's strategies retains one reference per strategy instead of copying
/// every field (docs/performance.md, "The Unleash engine").
final class CompiledStrategy: Sendable {
    /// The strategy's name as the server sent it (`flexibleRollout`, …), for explanations.
    let name: String
    let rule: StrategyRule
    let constraints: [CompiledConstraint]
    /// The strategy's own variants; `nil` when it has none, so the feature's variants apply.
    let variants: VariantSelector?

    init(name: String, rule: StrategyRule, constraints: [CompiledConstraint], variants: VariantSelector?) {
        self.name = name
        self.rule = rule
        self.constraints = constraints
        self.variants = variants
    }
}
