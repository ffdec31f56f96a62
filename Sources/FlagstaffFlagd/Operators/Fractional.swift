import Flagstaff

/// flagd's `fractional`: a stable bucket from a hash of the bucketing value, then a cumulative scan over
/// `[variant, weight]` entries.
///
/// The bucketing value is the first operand when it is one (version 2: a string; version 3: anything but `null` or
/// an array); otherwise every operand is an entry and the value is the flag key with the targeting key (version 2:
/// their text joined; version 3: the array `[flagKey, targetingKey]`), and without a non-empty string targeting key
/// the result is `null`. The hash is MurmurHash3 x86 32-bit, seed 0, read unsigned: version 2 over the text's UTF-8,
/// version 3 over the value's deterministic CBOR. `bucket = (hash × totalWeight) >> 32`. An entry is an array of a
/// variant and an optional whole weight (default 1, a negative weight counts as 0); any other entry, or weights
/// summing above 2,147,483,647 (or to 0 in version 3), make the result `null`.
enum Fractional {
    static let maximumTotalWeight: Double = 2_147_483_647

    static func evaluate(_ operands: [JSONValue], evaluator: inout RuleEvaluator) throws(RuleFailure) -> JSONValue {
        guard let first = operands.first else { return .null }
        let hash: UInt32
        let entries: ArraySlice<JSONValue>
        switch evaluator.bucketing {
        case .version2:
            if case .string(let text) = first {
                // An empty bucketing value buckets nobody, as in flagd's version 2 evaluators.
                guard !text.isEmpty else { return .null }
                hash = MurmurHash3.hash32(text.utf8)
                entries = operands.dropFirst()
            } else {
                guard let key = evaluator.targetingKey, !key.isEmpty else { return .null }
                var state = MurmurHash3.State(seed: 0)
                state.add(contentsOf: evaluator.flagKey.utf8)
                state.add(contentsOf: key.utf8)
                hash = state.finish()
                entries = operands[...]
            }
        case .version3:
            switch first {
            case .null:
                return .null
            case .array:
                guard let key = evaluator.targetingKey, !key.isEmpty else { return .null }
                hash = MurmurHash3.hash32(
                    DeterministicCBOR.encode(.array([.string(evaluator.flagKey), .string(key)])))
                entries = operands[...]
            default:
                try evaluator.pay(cost(of: first))
                hash = MurmurHash3.hash32(DeterministicCBOR.encode(first))
                entries = operands.dropFirst()
            }
        }
        var variants: [JSONValue] = []
        var weights: [UInt64] = []
        variants.reserveCapacity(entries.count)
        weights.reserveCapacity(entries.count)
        var total: Double = 0
        for entry in entries {
            guard case .array(let parts) = entry, !parts.isEmpty, parts.count <= 2 else { return .null }
            var weight: Double = 1
            if parts.count == 2 {
                guard case .number(let written) = parts[1], written == written.rounded(.towardZero) else {
                    return .null
                }
                weight = max(0, written)
            }
            total += weight
            if total > maximumTotalWeight { return .null }
            variants.append(parts[0])
            weights.append(UInt64(weight))
        }
        if evaluator.bucketing == .version3, total <= 0 { return .null }
        let bucket = (UInt64(hash) * UInt64(total)) >> 32
        var end: UInt64 = 0
        for (variant, weight) in zip(variants, weights) {
            end += weight
            if bucket < end { return variant }
        }
        return .null
    }

    /// What encoding a bucketing value costs the evaluation's budget: its size, roughly.
    private static func cost(of value: JSONValue) -> Int {
        switch value {
        case .string(let text): return text.utf8.count / 8
        case .array(let elements): return elements.count + elements.reduce(0) { $0 + cost(of: $1) }
        case .object(let members): return members.count + members.values.reduce(0) { $0 + cost(of: $1) }
        default: return 0
        }
    }
}
