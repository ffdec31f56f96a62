import Flagstaff
import Foundation

/// What the polling of one client has seen: failures in a row, the stop after 401/403, the last fetch and the
/// last error. Pure, so the backoff rules are tested without a clock.
struct UnleashFetchStatus: Sendable, Hashable {
    /// Consecutive 404/429/5xx answers; each adds one refresh interval to the next wait.
    var backoffFailures = 0
    /// Set by 401 or 403: polling has stopped (until a fetch succeeds).
    var halted: UnleashClientError?
    /// When the last successful fetch (200 or 304) completed.
    var lastFetch: Date?
    /// When the last fetch attempt completed.
    var lastAttempt: Date?
    /// The last fetch's error, `nil` after a success.
    var lastError: UnleashClientError?
    /// Whether a fetch has succeeded yet (the `ready` event has been sent).
    var isReady = false

    /// Records a successful fetch.
    /// - Returns: `first`: whether it was the first one (time to send `ready`); `resumes`: whether 401/403 had
    ///   stopped polling (time to start it again).
    mutating func recordSuccess(at date: Date) -> (first: Bool, resumes: Bool) {
        let resumes = halted != nil
        backoffFailures = 0
        halted = nil
        lastFetch = date
        lastAttempt = date
        lastError = nil
        defer { isReady = true }
        return (!isReady, resumes)
    }

    /// Records a failed fetch: 401/403 stop polling, 404/429/5xx back off, anything else only is remembered.
    mutating func recordFailure(_ error: UnleashClientError, at date: Date, maximumMultiplier: Int) {
        lastAttempt = date
        lastError = error
        if error.stopsPolling { halted = error }
        if error.triggersBackoff { backoffFailures = min(backoffFailures + 1, maximumMultiplier - 1) }
    }

    /// How long to wait before the next poll: the refresh interval times `1 + backoffFailures`.
    func delay(base: Duration) -> Duration {
        base * (1 + backoffFailures)
    }

    /// The status the registry's tools show; `base` is `.zero` when polling is off (then there is no next poll to
    /// be throttled until, and a failure shows as `.failed`).
    func remoteStatus(base: Duration, now: Date) -> RemoteSourceStatus {
        let state: RemoteSourceStatus.State
        if let halted {
            state = .failed(halted.description)
        } else if backoffFailures > 0, base > .zero, let lastAttempt {
            let wait = delay(base: base)
            let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
            state = .throttled(until: lastAttempt.addingTimeInterval(seconds))
        } else if let lastError {
            state = .failed(lastError.description)
        } else if lastFetch == nil {
            state = .neverFetched
        } else {
            state = .ok
        }
        return RemoteSourceStatus(lastFetch: lastFetch, state: state)
    }
}
