import Foundation

extension RemoteConfig {
    /// Calls `listener` after each fetch that brings a config differing from the active one.
    ///
    /// The update carries the keys added, removed or changed between the fetched and the active config;
    /// call ``activate()`` to apply them. The callback runs on the task that completed the fetch, outside any
    /// lock, so it may call back into this config.
    ///
    /// If the provider streams (``RemoteConfigRealtimeProvider``, e.g. Firebase), the first listener opens the
    /// realtime stream and the last removal closes it; the stream's errors go only to listeners of the
    /// two-argument form, `addOnConfigUpdateListener { update, error in … }`.
    ///
    /// - Parameter listener: The callback.
    /// - Returns: A registration; call ``RemoteConfigListenerRegistration/remove()`` to stop.
    @discardableResult
    public func addOnConfigUpdateListener(
        _ listener: @escaping @Sendable (RemoteConfigUpdate) -> Void
    ) -> RemoteConfigListenerRegistration {
        addOnConfigUpdateListener { update, _ in
            if let update { listener(update) }
        }
    }

    /// Calls `listener` with each update, or with an error from the realtime stream, as the Apple SDK's
    /// `addOnConfigUpdateListener` does.
    ///
    /// Updates come from every fetch that brings a config differing from the active one: fetches you make,
    /// auto-refresh, and the fetches the realtime stream triggers. If the provider streams
    /// (``RemoteConfigRealtimeProvider``), the first listener opens the stream: when the service announces a
    /// template version newer than the fetched one, the config fetches it (ignoring the minimum fetch interval,
    /// honouring backoff; up to 3 attempts) and the listeners get the update. The stream reconnects with
    /// exponential backoff (2 minutes doubling to 4 hours, ±50 % jitter, on the config's clock) and gives up
    /// after 7 failed attempts in a row. Errors (``RemoteConfigError/realtime(_:)``, or the fetch's error) reach
    /// the listeners as `(nil, error)`. The last removal closes the stream. Polling (``fetch(expirationDuration:)``,
    /// ``startAutoRefresh(every:activate:)``) keeps working alongside, and alone when the stream is unavailable.
    ///
    /// - Parameter listener: The callback: `(update, nil)` or `(nil, error)`; runs outside any lock.
    /// - Returns: A registration; call ``RemoteConfigListenerRegistration/remove()`` to stop.
    @discardableResult
    public func addOnConfigUpdateListener(
        _ listener: @escaping @Sendable (RemoteConfigUpdate?, RemoteConfigError?) -> Void
    ) -> RemoteConfigListenerRegistration {
        let id = state.withLock { current in
            let id = current.makeListenerID()
            current.updateListeners[id] = listener
            return id
        }
        startRealtimeIfNeeded()
        return RemoteConfigListenerRegistration { [weak self] in
            guard let self else { return }
            state.withLock { _ = $0.updateListeners.removeValue(forKey: id) }
            stopRealtimeIfUnused()
        }
    }

    /// A new stream of the same updates ``addOnConfigUpdateListener(_:)`` delivers.
    ///
    /// Each access creates an independent stream that buffers updates until read; it ends when the consuming
    /// task is cancelled or the config is deallocated.
    public var configUpdates: AsyncStream<RemoteConfigUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: RemoteConfigUpdate.self)
        let id = state.withLock { current in
            let id = current.makeListenerID()
            current.updateContinuations[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.updateContinuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Calls `listener` after each ``activate()`` that changed active values, with the changed keys.
    ///
    /// Used to refresh flags backed by remote values (``RemoteFeature``); apps may use it to refresh UI.
    ///
    /// - Parameter listener: The callback, run on the activating thread outside any lock.
    /// - Returns: A registration; call ``RemoteConfigListenerRegistration/remove()`` to stop.
    @discardableResult
    public func addOnActivateListener(
        _ listener: @escaping @Sendable (Set<String>) -> Void
    ) -> RemoteConfigListenerRegistration {
        let id = state.withLock { current in
            let id = current.makeListenerID()
            current.activationListeners[id] = listener
            return id
        }
        return RemoteConfigListenerRegistration { [weak self] in
            _ = self?.state.withLock { $0.activationListeners.removeValue(forKey: id) }
        }
    }

    /// Starts a background loop that fetches every `interval` seconds (the first fetch at once).
    ///
    /// The interval is waited for on the environment's clock (``RemoteConfigEnvironment/clock``), so a test
    /// clock drives the loop.
    ///
    /// Each tick fetches with expiration `0`, so the loop's interval, not the minimum fetch interval, sets
    /// the pace; backoff still applies. Fetches that bring changes notify update listeners; with
    /// `activate: true` each successful fetch is also activated. Calling it again replaces the loop.
    /// The loop stops on ``stopAutoRefresh()`` or when the config is deallocated.
    ///
    /// - Parameters:
    ///   - interval: Seconds between fetches (at least 0.01).
    ///   - activate: Whether to activate after each successful fetch.
    public func startAutoRefresh(every interval: TimeInterval, activate: Bool = false) {
        let pause = RemoteConfigEnvironment.duration(seconds: max(0.01, interval))
        let clock = environment.clock
        let task = Task { [weak self] in
            while !Task.isCancelled {
                // Hold the config only during the fetch, so it can be deallocated while the loop sleeps.
                guard await RemoteConfig.autoRefreshTick(self, activate: activate) else { return }
                do { try await clock.sleep(for: pause) } catch { return }  // cancelled: stopped or deallocated
            }
        }
        let previous = state.withLock { current in
            defer { current.autoRefresh = task }
            return current.autoRefresh
        }
        previous?.cancel()
    }

    /// One auto-refresh fetch; `false` once the config is gone.
    private static func autoRefreshTick(_ config: RemoteConfig?, activate: Bool) async -> Bool {
        guard let config else { return false }
        let result = await config.fetch(expirationDuration: 0)
        if activate, result.status == .success { config.activate() }
        return true
    }

    /// Stops the loop started by ``startAutoRefresh(every:activate:)``; an in-flight fetch completes.
    public func stopAutoRefresh() {
        let task = state.withLock { current in
            defer { current.autoRefresh = nil }
            return current.autoRefresh
        }
        task?.cancel()
    }

    /// Whether an auto-refresh loop is running.
    public var isAutoRefreshing: Bool {
        state.withLock { $0.autoRefresh != nil }
    }
}
