import Flagstaff
import Foundation

/// Starting and stopping: the first fetch, the poll and metrics loops, and the last metrics post at `stop()`.
extension UnleashPoller {
    /// Sends the pending failures, runs `first` (the server client's registration), fetches once, then polls and
    /// posts metrics. With `connect` (the server client's streaming mode), runs it instead of the first fetch and
    /// the polling: it returns once the stream has the state or failed, and starts polling itself if it falls
    /// back. Does nothing when started.
    func start(first: (@Sendable () async -> Void)? = nil, connect: (@Sendable () async -> Void)? = nil) async {
        let readyOnLoad = self.readyOnLoad
        let begin = state.withLock { state -> (pending: [UnleashClientFailure], ready: Bool)? in
            guard !state.running else { return nil }
            state.running = true
            let ready = readyOnLoad && !state.readySent
            if ready { state.readySent = true }
            defer { state.pendingFailures = [] }
            return (state.pendingFailures, ready)
        }
        guard let begin else { return }
        await executor.run {
            begin.pending.forEach { hub.emit(.error($0)) }
            if begin.ready { hub.emit(.ready) }
            await first?()
            if let connect {
                await connect()
            } else {
                await gate.run { await self.performFetch() }
            }
        }
        if connect == nil { startPolling() }
        startMetrics()
    }

    /// Starts (or restarts) the periodic metrics posts: every metrics interval (longer while backing off) until
    /// stopped or halted by 401/403. Does nothing when metrics are disabled or their interval is 0.
    func startMetrics() {
        guard !settings.disableMetrics, let base = settings.metricsInterval else { return }
        tasks.replace(
            "metrics",
            with: UnleashTaskSet.loop(
                owner: self, executor: executor, clock: options.clock,
                interval: { poller in
                    poller.state.withLock { state in state.running ? state.metrics.delay(base: base) : nil }
                },
                // Not cancelled by stop(): a post under way finishes, and stop() sends what was counted after it.
                body: { poller in await poller.executor.task { await poller.flushMetrics() }.value }))
    }

    /// Stops polling and periodic metrics; returns the counts not sent yet if the client was started.
    private func halt() -> UnleashMetricsBucket? {
        let (wasRunning, metricsHalted) = state.withLock { state -> (Bool, Bool) in
            defer { state.running = false }
            return (state.running, state.metrics.halted)
        }
        tasks.cancelAll()
        // After 401/403 the server refuses metrics: the counts stay for a later flushMetrics().
        guard wasRunning, !settings.disableMetrics, !metricsHalted else { return nil }
        return metrics.takeBucket()
    }

    /// Stops; the pending counts are posted once in the background, then the HTTP session is closed.
    func stop() {
        guard let bucket = halt() else {
            transport.invalidate()
            return
        }
        executor.task {
            await self.post(bucket)
            self.transport.invalidate()
        }
    }

    /// Stops; with `flushingMetrics`, posts the pending counts and returns when the post is done (within the
    /// timeout), else keeps them.
    func stop(flushingMetrics: Bool) async {
        if flushingMetrics {
            if let bucket = halt() { await executor.run { await post(bucket) } }
        } else {
            state.withLock { $0.running = false }
            tasks.cancelAll()
        }
        transport.invalidate()
    }

    /// Leaves streaming for polling (the server has no stream, or asked for polling): fetches now, then polls.
    func fallBackToPolling() async {
        await gate.run { await self.performFetch() }
        if isRunning { startPolling() }
    }

    /// Starts (or restarts) the poll loop: it waits the current interval (backoff included) on the clock, then
    /// fetches, until stopped or halted by 401/403. Does nothing when the refresh interval is 0 (polling off).
    func startPolling() {
        guard let base = settings.refreshInterval else { return }
        tasks.replace(
            "poll",
            with: UnleashTaskSet.loop(
                owner: self, executor: executor, clock: options.clock,
                interval: { poller in
                    poller.state.withLock { state in
                        guard state.running, state.fetch.halted == nil else { return nil }
                        return state.fetch.delay(base: base)
                    }
                },
                body: { poller in await poller.gate.run { await poller.performFetch() } }))
    }
}
