/// What the metrics posts of one client have seen: posts rejected in a row (404, 429, 5xx) and the stop after
/// 401/403. The same rules as polling (``UnleashFetchStatus``), as Unleash's Node SDK applies them to metrics.
struct UnleashMetricsStatus: Sendable, Hashable {
    /// Consecutive 404/429/5xx answers; each adds one metrics interval to the next wait.
    var backoffFailures = 0
    /// Set by 401 or 403: periodic posts have stopped (until a post succeeds).
    var halted = false

    /// Records an accepted post.
    /// - Returns: Whether 401/403 had stopped the periodic posts (time to start them again).
    mutating func recordSuccess() -> Bool {
        defer { (backoffFailures, halted) = (0, false) }
        return halted
    }

    /// Records a failed post: 401/403 stop periodic posts, 404/429/5xx back off, anything else changes nothing.
    mutating func recordFailure(_ error: UnleashClientError, maximumMultiplier: Int) {
        if error.stopsPolling { halted = true }
        if error.triggersBackoff { backoffFailures = min(backoffFailures + 1, maximumMultiplier - 1) }
    }

    /// The wait before the next periodic post, `nil` once 401/403 stopped them.
    func delay(base: Duration) -> Duration? {
        halted ? nil : base * (1 + backoffFailures)
    }
}
