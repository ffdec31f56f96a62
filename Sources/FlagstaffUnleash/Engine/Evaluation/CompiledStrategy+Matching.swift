extension CompiledStrategy {
    /// Whether this strategy is on for `context`: every constraint holds and the rule matches.
    @inline(__always)
    func matches(_ context: UnleashContext) -> Bool {
        for constraint in constraints where !constraint.matches(context) { return false }
        switch rule {
        case .always:
            return true
        case .never:
            return false
        case .userIds(let ids):
            guard let userId = context.userId else { return false }
            return ids.contains(userId)
        case .rollout(let percentage, let prefix, let stickiness):
            let identifier: String
            switch stickiness {
            case .standard:
                guard let value = context.userId ?? context.sessionId else { return Self.randomBucket() <= percentage }
                identifier = value
            case .random:
                return Self.randomBucket() <= percentage
            case .field(let field):
                guard let value = field.value(in: context) else { return false }
                identifier = value
            }
            guard percentage > 0 else { return false }
            return MurmurHash3.normalizedValue(
                prefix: prefix, identifier: identifier, modulus: 100, seed: MurmurHash3.rolloutSeed)
                <= percentage
        case .randomRollout(let percentage):
            return Int.random(in: 0..<99) < percentage
        case .remoteAddress(let networks):
            guard let text = context.remoteAddress, let address = IPAddress(text) else { return false }
            return networks.contains { $0.contains(address) }
        }
    }

    /// A random bucket in 1...100, for random stickiness.
    @inline(__always)
    private static func randomBucket() -> Int { Int.random(in: 1...100) }
}
