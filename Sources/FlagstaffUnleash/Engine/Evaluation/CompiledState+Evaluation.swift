extension CompiledState {
    /// How a feature came out for a context.
    enum Outcome {
        case off
        /// On because the feature has no strategies.
        case onWithoutStrategy
        /// On because the strategy at this index matched.
        case on(strategy: Int)

        var isOn: Bool {
            if case .off = self { return false }
            return true
        }
    }

    /// Whether `name` is on for `context`; unknown features are off.
    @inline(__always)
    func isEnabled(_ name: String, context: UnleashContext) -> Bool {
        features.withFeature(named: name) { outcome(of: $0, context: context).isOn } ?? false
    }

    /// The variant of `name` for `context`.
    func variant(_ name: String, context: UnleashContext) -> UnleashVariant {
        features.withFeature(named: name) { feature in
            variant(of: feature, outcome: outcome(of: feature, context: context), context: context)
        } ?? .disabled(featureEnabled: false)
    }

    /// The full outcome: the feature's switch, its dependencies, then its strategies in order.
    func outcome(of feature: CompiledFeature, context: UnleashContext) -> Outcome {
        guard feature.enabled else { return .off }
        if !feature.dependencies.isEmpty && unmetDependency(of: feature, context: context) != nil { return .off }
        return strategyOutcome(of: feature, context: context)
    }

    @inline(__always)
    private func strategyOutcome(of feature: CompiledFeature, context: UnleashContext) -> Outcome {
        guard feature.enabled else { return .off }
        let strategies = feature.strategies
        if strategies.isEmpty { return .onWithoutStrategy }
        for index in strategies.indices where strategies[index].matches(context) {
            return .on(strategy: index)
        }
        return .off
    }

    /// Dependencies are one level deep: a parent that has dependencies of its own (which includes cycles) or that
    /// does not exist fails the child.
    /// The first dependency that does not hold, or `nil` when all hold.
    func unmetDependency(of feature: CompiledFeature, context: UnleashContext) -> CompiledFeature.Dependency? {
        for dependency in feature.dependencies {
            guard let parent = features[dependency.feature], parent.dependencies.isEmpty else { return dependency }
            let parentOutcome = strategyOutcome(of: parent, context: context)
            guard dependency.expectEnabled else {
                if parentOutcome.isOn { return dependency }
                continue
            }
            guard parentOutcome.isOn else { return dependency }
            if !dependency.variants.isEmpty {
                let parentVariant = variant(of: parent, outcome: parentOutcome, context: context)
                guard dependency.variants.contains(parentVariant.name) else { return dependency }
            }
        }
        return nil
    }

    /// The variant for an outcome: the matching strategy's variants, else the feature's, else `disabled`.
    func variant(of feature: CompiledFeature, outcome: Outcome, context: UnleashContext) -> UnleashVariant {
        switch outcome {
        case .off:
            return .disabled(featureEnabled: false)
        case .on(let index):
            if let selector = feature.strategies[index].variants { return selector.select(context) }
        case .onWithoutStrategy:
            break
        }
        return feature.variants?.select(context) ?? .disabled(featureEnabled: true)
    }
}
