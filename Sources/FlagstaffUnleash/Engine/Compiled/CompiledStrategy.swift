/// One compiled strategy: its rule, its constraints (segment constraints appended) and its variants.
struct CompiledStrategy: Sendable {
    let rule: StrategyRule
    let constraints: [CompiledConstraint]
    /// The strategy's own variants; `nil` when it has none, so the feature's variants apply.
    let variants: VariantSelector?
}
