import Flagstaff
import Foundation

/// Starting and stopping: the first fetch, the poll and metrics loops, and the last metrics post at `stop()`.
extension UnleashPoller {
    /// Sends the pending failures, runs `first` (the server client's registration), fetches once, then polls and
    /// posts metrics. Does nothing when started.
    func start(first: (@Sendable () async -> Void)? = nil) async {
        let pending = state.withLock { state -> [UnleashClientFailure]? in
            guard !state.running else { return nil }
            state.running = true
            defer { state.pendingFailures = [] }
            return state.pendingFailures
        }
        guard let pending else { return }
        await executor.run {
            pending.forEach { hub.emit(.error($0)) }
            await first?()
            await gate.run { await self.performFetch() }
        }
        startPolling()
        if !settings.disableMetrics {
            let interval = settings.metricsInterval
            tasks.replace(
                "metrics",
                with: UnleashTaskSet.loop(
                    owner: self, executor: executor, clock: options.clock,
                    interval: { poller in poller.isRunning ? interval : nil },
                    // Not cancelled by stop(): a post under way finishes, and stop() sends what was counted after it.
                    body: { poller in await poller.executor.task { await poller.flushMetrics() }.value }))
        }
    }

    /// Stops polling and periodic metrics; returns the counts not sent yet if the client was started.
    private func halt() -> UnleashMetricsBucket? {
        let wasRunning = state.withLock { state -> Bool in
            defer { state.running = false }
            return state.running
        }
        tasks.cancelAll()
        guard wasRunning, !settings.disableMetrics else { return nil }
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

    /// Starts (or restarts) the poll loop: it waits the current interval (backoff included) on the clock, then
    /// fetches, until stopped or halted by 401/403/404.
    func startPolling() {
        let base = settings.refreshInterval
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
