extension CompiledState {
    /// Evaluates `name` once and explains the outcome.
    func evaluate(_ name: String, context: UnleashContext) -> UnleashEvaluation {
        guard let feature = features[name] else {
            return UnleashEvaluation(
                flag: name, enabled: false, variant: .disabled(featureEnabled: false),
                reason: "off: the state has no flag of this name", matchedStrategy: nil)
        }
        let outcome = outcome(of: feature, context: context)
        let variant = variant(of: feature, outcome: outcome, context: context)
        let reason: String
        var matched: Int?
        switch outcome {
        case .on(let index):
            matched = index
            let strategy = feature.strategies[index]
            reason = "on: strategy \(index + 1) of \(feature.strategies.count) (\(strategy.name)) matched"
        case .onWithoutStrategy:
            reason = "on: switched on and has no strategies"
        case .off:
            reason = offReason(feature, context: context)
        }
        return UnleashEvaluation(
            flag: name, enabled: outcome.isOn, variant: variant, reason: reason, matchedStrategy: matched)
    }

    private func offReason(_ feature: CompiledFeature, context: UnleashContext) -> String {
        if !feature.info.enabled { return "off: switched off in this environment" }
        if let unusable = feature.unusableReason { return "off: the definition cannot be used (\(unusable))" }
        if let dependency = unmetDependency(of: feature, context: context) {
            if features[dependency.feature] == nil {
                return "off: depends on \(dependency.feature.debugDescription), which the state does not have"
            }
            if features[dependency.feature]?.dependencies.isEmpty == false {
                return "off: depends on \(dependency.feature.debugDescription), which has dependencies of its own"
            }
            if !dependency.expectEnabled { return "off: needs \(dependency.feature.debugDescription) to be off" }
            if dependency.variants.isEmpty { return "off: needs \(dependency.feature.debugDescription) to be on" }
            return "off: needs \(dependency.feature.debugDescription) to be on with variant "
                + dependency.variants.sorted().joined(separator: " or ")
        }
        let names = feature.strategies.map(\.name).joined(separator: ", ")
        return "off: none of the \(feature.strategies.count) strategies matched (\(names))"
    }
}
