/// Picks a variant from a weighted list: overrides first, then the sticky bucket
/// `murmur3("<groupId>:<value>", seed 86028157) % totalWeight + 1` walked through the cumulative weights.
struct VariantSelector: Sendable {
    /// A variant pinned for listed values of one field.
    struct Override: Sendable {
        let field: ContextField
        let values: Set<String>
        let variantIndex: Int
    }

    /// Variants ready to return (`enabled` and `featureEnabled` already `true`) with their weights.
    let variants: [(variant: UnleashVariant, weight: Int)]
    let totalWeight: Int
    let overrides: [Override]
    let stickiness: Stickiness
    let groupPrefix: [UInt8]

    /// Compiles a variant list; `nil` when there is nothing to pick from (empty list, zero total weight, or a total
    /// beyond 32 bits).
    /// - Parameter honourOverrides: `false` for strategy variants, whose overrides the reference engine ignores.
    init?(definitions: [VariantDefinition], stickiness: Stickiness, group: String, honourOverrides: Bool = true) {
        // Weights come from outside: add them without trapping, and give up on totals a 32-bit bucket cannot hold.
        var total = 0
        for definition in definitions {
            let (sum, overflow) = total.addingReportingOverflow(max(definition.weight, 0))
            guard !overflow else { return nil }
            total = sum
        }
        guard !definitions.isEmpty, total > 0, total <= Int(UInt32.max) else { return nil }
        variants = definitions.map { definition in
            let payload = definition.payload.map { UnleashPayload(type: $0.type, value: $0.value) }
            return (
                UnleashVariant(name: definition.name, enabled: true, featureEnabled: true, payload: payload),
                max(definition.weight, 0)
            )
        }
        totalWeight = total
        var overrides: [Override] = []
        for (index, definition) in definitions.enumerated() where honourOverrides {
            for override in definition.overrides {
                overrides.append(
                    Override(
                        field: ContextField(name: override.contextName), values: Set(override.values),
                        variantIndex: index))
            }
        }
        self.overrides = overrides
        self.stickiness = stickiness
        self.groupPrefix = MurmurHash3.prefix(forGroup: group)
    }

    /// The variant for `context`.
    func select(_ context: UnleashContext) -> UnleashVariant {
        for override in overrides {
            if let value = override.field.value(in: context), override.values.contains(value) {
                return variants[override.variantIndex].variant
            }
        }
        let target: Int
        if let identifier = stickyValue(context) {
            target = MurmurHash3.normalizedValue(
                prefix: groupPrefix, identifier: identifier, modulus: UInt32(totalWeight), seed: MurmurHash3.variantSeed
            )
        } else {
            target = Int.random(in: 1...totalWeight)
        }
        var cumulative = 0
        for entry in variants {
            cumulative += entry.weight
            if cumulative >= target { return entry.variant }
        }
        return variants[variants.count - 1].variant
    }

    private func stickyValue(_ context: UnleashContext) -> String? {
        switch stickiness {
        case .standard: return context.userId ?? context.sessionId
        case .random: return nil
        case .field(let field): return field.value(in: context)
        }
    }
}
