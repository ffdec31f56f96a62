/// The compiled test of one activation strategy, without its constraints.
enum StrategyRule: Sendable {
    /// `default`, or `applicationHostname` listing this host.
    case always
    /// A strategy that can never match: unknown (custom) strategies, invalid parameters, missing segments.
    case never
    /// `userWithId`: the user id is one of these.
    case userIds(Set<String>)
    /// `flexibleRollout`, `gradualRolloutUserId`, `gradualRolloutSessionId`: the sticky value's bucket
    /// (`murmur3("<groupId>:<value>") % 100 + 1`) is at most `percentage`.
    case rollout(percentage: Int, groupPrefix: [UInt8], stickiness: Stickiness)
    /// `gradualRolloutRandom`: a random bucket is at most `percentage`.
    case randomRollout(percentage: Int)
    /// `remoteAddress`: the context's address is one of these addresses or ranges.
    case remoteAddress([IPNetwork])
}
