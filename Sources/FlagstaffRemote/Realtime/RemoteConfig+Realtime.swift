import Foundation

extension RemoteConfig {
    /// The SDK's limit on consecutive failed stream connections before it gives up and tells the listeners.
    public static let realtimeMaximumRetries = 7
    /// The SDK's limit on fetches for one announced template version.
    public static let realtimeFetchAttempts = 3

    /// Whether the realtime stream loop is running (there are update listeners and the provider streams).
    public var isRealtimeRunning: Bool {
        state.withLock { $0.realtime != nil }
    }

    /// Starts the stream loop if the provider streams, there are listeners and none runs yet.
    func startRealtimeIfNeeded() {
        guard let streaming = provider as? any RemoteConfigRealtimeProvider, streaming.isRealtimeEnabled else { return }
        let environment = self.environment
        state.withLock { current in
            guard current.realtime == nil, !current.updateListeners.isEmpty else { return }
            current.realtimeGeneration += 1
            let generation = current.realtimeGeneration
            current.realtime = Task { [weak self] in
                await RealtimeLoop(config: self, provider: streaming, environment: environment, generation: generation)
                    .run()
            }
        }
    }

    /// Stops the stream loop once the last listener is gone (the connection is closed at once).
    func stopRealtimeIfUnused() {
        let task = state.withLock { current -> Task<Void, Never>? in
            guard current.updateListeners.isEmpty else { return nil }
            defer { current.realtime = nil }
            return current.realtime
        }
        task?.cancel()
    }

    /// Passes an error to every update listener, outside the lock.
    func notifyListeners(of error: RemoteConfigError) {
        let listeners = state.withLock { Array($0.updateListeners.values) }
        for listener in listeners { listener(nil, error) }
    }

    /// The request for the next stream connection: the fetched template version and the last ETag.
    var streamRequest: RemoteConfigStreamRequest {
        state.withLock {
            RemoteConfigStreamRequest(
                lastKnownTemplateVersion: $0.metadata.fetchedTemplateVersion, eTag: $0.metadata.eTag)
        }
    }

    /// The fetched template version as a number (0 when unknown or not numeric).
    var fetchedTemplateVersionNumber: Int64 {
        state.withLock { $0.metadata.fetchedTemplateVersion.flatMap { Int64($0) } ?? 0 }
    }

    /// Forgets the loop when it ends on its own (gave up, or the service disabled realtime), so a later
    /// listener can start a new one. A loop already replaced by a newer one changes nothing.
    func realtimeLoopEnded(generation: UInt64) {
        state.withLock { current in
            if current.realtimeGeneration == generation { current.realtime = nil }
        }
    }
}

/// The realtime stream loop of one ``RemoteConfig``: connect, read, fetch on announcements, reconnect with
/// backoff. Holds the config weakly, so an abandoned config is released and the loop ends.
struct RealtimeLoop {
    weak var config: RemoteConfig?
    let provider: any RemoteConfigRealtimeProvider
    let environment: RemoteConfigEnvironment
    /// Which start of the loop this is (see ``RemoteConfig/realtimeLoopEnded(generation:)``).
    let generation: UInt64

    /// Why a connection ended, to decide what comes next.
    private enum Ending {
        case closed(connected: Bool)
        case failed(connected: Bool)
        case stop
    }

    func run() async {
        var remainingRetries = RemoteConfig.realtimeMaximumRetries
        var backoff: TimeInterval = 0
        var waitUntil: Date?
        while !Task.isCancelled {
            if let until = waitUntil {
                let seconds = until.timeIntervalSince(environment.now())
                if seconds > 0 {
                    do {
                        try await environment.clock.sleep(for: RemoteConfigEnvironment.duration(seconds: seconds))
                    } catch {
                        return
                    }
                }
            }
            guard let request = config?.streamRequest else { return }
            var retryInterval: TimeInterval?
            let ending = await readOneConnection(request, retryInterval: &retryInterval)
            if Task.isCancelled { return }
            switch ending {
            case .stop:
                config?.realtimeLoopEnded(generation: generation)
                return
            case .closed(let connected), .failed(let connected):
                if connected { remainingRetries = RemoteConfig.realtimeMaximumRetries }
                let now = environment.now()
                if case .failed = ending {
                    backoff =
                        backoff > 0
                        ? min(backoff * 2, RemoteConfig.maximumBackoffInterval) : RemoteConfig.minimumBackoffInterval
                    waitUntil = now.addingTimeInterval(backoff * (0.5 + min(max(environment.random(), 0), 1)))
                } else {
                    backoff = 0
                    waitUntil = nil
                }
                // A pause the server asked for is honoured too, whichever ends later.
                if let retryInterval {
                    waitUntil = max(waitUntil ?? now, now.addingTimeInterval(retryInterval))
                }
                remainingRetries -= 1
                if remainingRetries <= 0 {
                    config?.notifyListeners(
                        of: .realtime(
                            "unable to connect to the server after \(RemoteConfig.realtimeMaximumRetries) attempts; check the connection and add a listener again"
                        ))
                    config?.realtimeLoopEnded(generation: generation)
                    return
                }
            }
        }
    }

    /// Reads one connection to its end.
    private func readOneConnection(_ request: RemoteConfigStreamRequest, retryInterval: inout TimeInterval?) async
        -> Ending
    {
        var connected = false
        var failed = false
        for await event in provider.openInvalidationStream(request) {
            switch event {
            case .connected:
                connected = true
            case .templateVersion(let version):
                await fetchAnnounced(version)
            case .retryInterval(let seconds):
                retryInterval = seconds
            case .disabled:
                config?.notifyListeners(
                    of: .realtime("the service has turned realtime updates off for now; try again in a few minutes"))
                return .stop
            case .invalidMessage(let reason):
                config?.notifyListeners(of: .realtime("unable to parse a stream message: \(reason)"))
            case .failed(let error, let retryable):
                failed = true
                if !retryable {
                    config?.notifyListeners(of: .realtime("unable to connect to the server: \(error)"))
                }
            }
        }
        // A connection that ended before the service accepted it counts as failed, so it backs off instead of
        // reconnecting in a tight loop.
        return failed || !connected ? .failed(connected: connected) : .closed(connected: connected)
    }

    /// Fetches until the fetched template reaches `version` (at most 3 attempts, each after a random 0–3 s pause
    /// on the clock, as the SDK); the fetch itself notifies the listeners of changed keys.
    private func fetchAnnounced(_ version: Int64) async {
        guard let start = config?.fetchedTemplateVersionNumber, version > start else { return }
        for attempt in 1...RemoteConfig.realtimeFetchAttempts {
            let pause = (min(max(environment.random(), 0), 0.999) * 4).rounded(.down)
            if pause > 0 {
                do { try await environment.clock.sleep(for: .seconds(pause)) } catch { return }
            }
            guard let config else { return }
            let result = await config.fetch(expirationDuration: 0, realtimeAttempt: attempt)
            if let error = result.error {
                config.notifyListeners(of: error)
                return
            }
            if config.fetchedTemplateVersionNumber >= version { return }
        }
        config?.notifyListeners(
            of: .realtime(
                "unable to fetch the latest version of the template (\(version)) after \(RemoteConfig.realtimeFetchAttempts) attempts"
            ))
    }
}
