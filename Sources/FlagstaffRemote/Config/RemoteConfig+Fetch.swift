import Foundation

extension RemoteConfig {
    /// The first backoff interval after HTTP 429/500/503/504: 2 minutes.
    public static let minimumBackoffInterval: TimeInterval = 2 * 60
    /// The longest backoff interval: 4 hours.
    public static let maximumBackoffInterval: TimeInterval = 4 * 60 * 60

    /// How many `fetch` calls so far joined a request already in flight instead of starting one.
    package var joinedFetchCount: Int { state.withLock { $0.joinedFetches } }

    /// Fetches the config template into the fetched config (not yet visible to reads; see ``activate()``).
    ///
    /// In the Apple SDK's order: if the last successful fetch is younger than `expirationDuration` (default:
    /// ``RemoteConfigSettings/minimumFetchInterval``), returns ``RemoteConfigFetchStatus/success`` with
    /// ``RemoteConfigFetchResult/servedFromCache`` set and makes no request — even while backoff is in effect.
    /// Otherwise, if backoff is in effect, returns ``RemoteConfigFetchStatus/throttled`` with the end time and
    /// makes no request. Otherwise asks the provider, sending the last ETag and the custom signals, and waits at
    /// most ``RemoteConfigSettings/fetchTimeout``. Concurrent calls share one request.
    ///
    /// A change of the provider's ``RemoteConfigProvider/deviceContext`` since the last successful fetch (for
    /// Firebase: app version, build, OS version, language or app ID) skips both the interval and the backoff,
    /// as in the SDK, so a new app version fetches at its first launch.
    ///
    /// A failure never touches the fetched or active configs. HTTP 429, 500, 503 and 504 start or extend
    /// exponential backoff and report ``RemoteConfigFetchStatus/throttled``; other failures report
    /// ``RemoteConfigFetchStatus/failure``. A successful fetch whose content changed notifies update
    /// listeners with the keys that differ from the active config. The outcome is persisted.
    ///
    /// - Parameter expirationDuration: How old (seconds) the last successful fetch may be before a new
    ///   request is made; `0` always asks the provider (unless throttled).
    /// - Returns: The status, error and pending keys. Never throws: failures are in the result.
    @discardableResult
    public func fetch(expirationDuration: TimeInterval? = nil) async -> RemoteConfigFetchResult {
        await fetch(expirationDuration: expirationDuration, realtimeAttempt: nil)
    }

    /// ``fetch(expirationDuration:)``, telling the provider when the realtime stream asked for it.
    func fetch(expirationDuration: TimeInterval?, realtimeAttempt: Int?) async -> RemoteConfigFetchResult {
        let now = environment.now()
        enum Decision {
            case done(RemoteConfigFetchResult, shouldPersist: Bool)
            case join(Task<RemoteConfigFetchResult, Never>)
        }
        let deviceContext = provider.deviceContext
        let decision: Decision = state.withLock { current in
            if let inFlight = current.inFlight {
                current.joinedFetches += 1
                return .join(inFlight)
            }
            let contextChanged = Self.deviceContextChanged(from: current.metadata.deviceContext, to: deviceContext)
            let expiration = expirationDuration ?? current.settings.minimumFetchInterval
            if !contextChanged, let last = current.metadata.lastFetchTime, last <= now,
                now.timeIntervalSince(last) < expiration
            {
                return .done(
                    RemoteConfigFetchResult(
                        status: .success, servedFromCache: true,
                        pendingKeys: current.pendingKeys), shouldPersist: false)
            }
            if !contextChanged, let end = current.metadata.throttleEndTime, end > now {
                let error = RemoteConfigError.throttled(until: end, cause: nil)
                current.metadata.lastFetchStatus = .throttled
                current.metadata.lastError = error.description
                current.lastError = error
                return .done(
                    RemoteConfigFetchResult(status: .throttled, error: error, pendingKeys: current.pendingKeys),
                    shouldPersist: true)
            }
            let request = RemoteConfigFetchRequest(
                eTag: current.metadata.eTag,
                customSignals: current.metadata.customSignals,
                timeout: current.settings.fetchTimeout,
                lastTemplateVersion: current.metadata.fetchedTemplateVersion,
                realtimeAttempt: realtimeAttempt
            )
            let task = Task { await self.performFetch(request, deviceContext: deviceContext) }
            current.inFlight = task
            return .join(task)
        }
        switch decision {
        case .done(let result, let shouldPersist):
            if shouldPersist { persist(fetched: false, active: false) }
            return result
        case .join(let task):
            return await task.value
        }
    }

    /// Runs one provider request and records its outcome.
    private func performFetch(_ request: RemoteConfigFetchRequest, deviceContext: [String: String]) async
        -> RemoteConfigFetchResult
    {
        let provider = self.provider
        let outcome = await RemoteConfigTimeout.run(seconds: request.timeout, clock: environment.clock) {
            () async throws(RemoteConfigProviderError) in
            try await provider.fetch(request)
        }
        let now = environment.now()
        let random = environment.random()
        var update: RemoteConfigUpdate?
        var listeners: [@Sendable (RemoteConfigUpdate?, RemoteConfigError?) -> Void] = []
        let (result, fetchedChanged) = state.withLock { current -> (RemoteConfigFetchResult, Bool) in
            current.inFlight = nil
            current.metadata.lastAttemptTime = now
            switch outcome {
            case .success(let response):
                let previous = current.fetched
                Self.apply(response, to: &current)
                current.metadata.lastFetchTime = now
                current.metadata.lastFetchStatus = .success
                current.metadata.lastError = nil
                current.metadata.throttleEndTime = nil
                current.metadata.backoffInterval = 0
                current.metadata.deviceContext = deviceContext
                current.lastError = nil
                let pending = current.pendingKeys
                let changed = previous != current.fetched
                if changed, !pending.isEmpty {
                    update = RemoteConfigUpdate(updatedKeys: pending)
                    listeners = Array(current.updateListeners.values)
                    for continuation in current.updateContinuations.values {
                        continuation.yield(RemoteConfigUpdate(updatedKeys: pending))
                    }
                }
                return (RemoteConfigFetchResult(status: .success, pendingKeys: pending), changed)
            case .failure(let failure):
                let error: RemoteConfigError
                if failure.triggersBackoff {
                    let base =
                        current.metadata.backoffInterval > 0
                        ? min(current.metadata.backoffInterval * 2, Self.maximumBackoffInterval)
                        : Self.minimumBackoffInterval
                    // ±50 % jitter: a factor uniformly distributed in [0.5, 1.5).
                    let jittered = base * (0.5 + min(max(random, 0), 1))
                    let end = now.addingTimeInterval(jittered)
                    current.metadata.backoffInterval = base
                    current.metadata.throttleEndTime = end
                    current.metadata.lastFetchStatus = .throttled
                    error = .throttled(until: end, cause: failure)
                } else {
                    current.metadata.lastFetchStatus = .failure
                    error = .fetchFailed(failure)
                }
                current.metadata.lastError = error.description
                current.lastError = error
                return (
                    RemoteConfigFetchResult(
                        status: current.metadata.lastFetchStatus, error: error,
                        pendingKeys: current.pendingKeys), false
                )
            }
        }
        if let error = result.error {
            logger.warning("remote config \(provider.name): \(error.description)")
        }
        persist(fetched: fetchedChanged, active: false)
        if let update {
            for listener in listeners { listener(update, nil) }
        }
        return result
    }

    /// Whether the device context differs from the one recorded at the last successful fetch: a key of the
    /// current context whose stored value is missing or different. An empty context never counts as changed.
    static func deviceContextChanged(from stored: [String: String]?, to current: [String: String]) -> Bool {
        guard !current.isEmpty else { return false }
        let stored = stored ?? [:]
        return current.contains { stored[$0.key] != $0.value }
    }

    /// Applies a successful response to the fetched config and ETag bookkeeping.
    private static func apply(_ response: RemoteConfigFetchResponse, to current: inout RemoteConfigState) {
        let version = response.templateVersion ?? current.fetched?.templateVersion
        switch response.content {
        case .entries(let entries):
            current.fetched = RemoteConfigStorage.StoredConfig(
                templateVersion: response.templateVersion, entries: entries)
        case .unchanged:
            // Nothing new on the server: keep what was fetched (or, if that file was lost, what is active).
            if current.fetched == nil {
                current.fetched = current.active ?? RemoteConfigStorage.StoredConfig(entries: [:])
            }
            current.fetched?.templateVersion = version
        case .empty, .noTemplate:
            current.fetched = RemoteConfigStorage.StoredConfig(templateVersion: response.templateVersion, entries: [:])
        }
        current.metadata.fetchedTemplateVersion = current.fetched?.templateVersion
        if let eTag = response.eTag { current.metadata.eTag = eTag }
    }

    /// Makes the fetched config the active one, so reads see it.
    ///
    /// Returns `false` and changes nothing if there is no fetched config or it equals the active one. On
    /// success the active config and metadata are persisted, and activation listeners (registries bound via
    /// ``RemoteFeature`` among them) are told which keys changed.
    ///
    /// - Returns: Whether any active value was added, removed or changed.
    @discardableResult
    public func activate() -> Bool {
        let now = environment.now()
        var listeners: [@Sendable (Set<String>) -> Void] = []
        let changed: Set<String>? = state.withLock { current in
            guard let fetched = current.fetched, fetched != current.active else { return nil }
            let keys = RemoteConfigState.changedKeys(from: current.active?.entries ?? [:], to: fetched.entries)
            current.setActive(fetched)
            current.metadata.activeTemplateVersion = fetched.templateVersion
            current.metadata.lastActivationTime = now
            listeners = Array(current.activationListeners.values)
            return keys
        }
        guard let changed else { return false }
        generation.advance()
        persist(fetched: false, active: true)
        if !changed.isEmpty {
            for listener in listeners { listener(changed) }
        }
        return !changed.isEmpty
    }

    /// Fetches (honouring the minimum fetch interval and backoff) and, if that succeeds, activates.
    ///
    /// Status: ``RemoteConfigFetchAndActivateStatus/successFetchedFromRemote`` when a request was made and
    /// succeeded; ``RemoteConfigFetchAndActivateStatus/successUsingPreFetchedData`` when the minimum fetch
    /// interval served it (the previously fetched config is still activated if newer);
    /// ``RemoteConfigFetchAndActivateStatus/error`` when the fetch failed or was throttled.
    ///
    /// - Returns: The status, whether activation changed anything, and the fetch result.
    @discardableResult
    public func fetchAndActivate() async -> RemoteConfigFetchAndActivateResult {
        let fetchResult = await fetch()
        guard fetchResult.status == .success else {
            return RemoteConfigFetchAndActivateResult(status: .error, activated: false, fetch: fetchResult)
        }
        let activated = activate()
        let status: RemoteConfigFetchAndActivateStatus =
            fetchResult.servedFromCache ? .successUsingPreFetchedData : .successFetchedFromRemote
        return RemoteConfigFetchAndActivateResult(status: status, activated: activated, fetch: fetchResult)
    }

    /// Writes the requested files plus metadata from a fresh snapshot; failures are recorded, not thrown.
    func persist(fetched: Bool, active: Bool) {
        guard let storage else { return }
        writeLock.withLock { _ in
            let snapshot = state.withLock { ($0.fetched, $0.active, $0.metadata) }
            do throws(RemoteConfigError) {
                if fetched {
                    if let config = snapshot.0 {
                        try storage.write(config, to: storage.fetchedURL)
                    } else {
                        try storage.remove(storage.fetchedURL)
                    }
                }
                if active, let config = snapshot.1 { try storage.write(config, to: storage.activeURL) }
                try storage.write(snapshot.2, to: storage.metadataURL)
            } catch {
                logger.error("\(error.description)")
                state.withLock { $0.recordProblem(error) }
            }
        }
    }
}
