import Flagstaff
import FlagstaffRemote
import Foundation

/// What tells the two clients' polling apart: what is requested and how an answer becomes what the client serves.
struct UnleashFeed<Model: Sendable, Answer: Sendable>: Sendable {
    /// The endpoint named in errors (without the frontend client's query).
    var endpoint: URL
    /// The URL polled for the current model.
    var url: @Sendable (Model) -> URL
    /// Reads an HTTP 200 body, outside the lock. Throws ``UnleashClientError/invalidResponse(_:)`` naming the
    /// source (the second argument) for a bad body.
    var decode: @Sendable (Data, String) throws(UnleashClientError) -> Answer
    /// Installs an answer into the model, under the lock (keep it short).
    /// - Returns: The names of what changed, sorted.
    var install: @Sendable (inout Model, Answer) -> [String]
    /// The bytes persisted for an answer and its body.
    var snapshot: @Sendable (Answer, Data) throws(UnleashClientError) -> Data
}

/// What both clients send with every request and how they poll and post metrics.
struct UnleashPollerSettings: Sendable {
    /// `{url}`: metrics go to `{url}/client/metrics`.
    var url: URL
    var appName: String
    var environment: String?
    /// The `instanceId` of metrics posts.
    var instanceID: String
    /// `Authorization` and the `unleash-*` fields, in order; custom fields follow them.
    var headers: [(name: String, value: String)]
    var customHeaders: [String: String]
    var customHeadersProvider: (@Sendable () -> [String: String])?
    var refreshInterval: Duration
    var metricsInterval: Duration
    var disableMetrics: Bool
    var options: UnleashClientOptions

    /// Settings; intervals under a millisecond count as one.
    /// - Parameter instanceID: The server client's instance id (sent as `unleash-instanceid` and in metrics);
    ///   `nil` for the frontend client, whose metrics name the connection id.
    init(url: URL, key: String, appName: String, environment: String?, instanceID: String?,
         customHeaders: [String: String], customHeadersProvider: (@Sendable () -> [String: String])?,
         refreshInterval: Duration, metricsInterval: Duration, disableMetrics: Bool, options: UnleashClientOptions) {
        self.url = url
        self.appName = appName
        self.environment = environment
        self.instanceID = instanceID ?? options.connectionID
        headers = [("Authorization", key), ("unleash-appname", appName)]
            + (instanceID.map { [("unleash-instanceid", $0)] } ?? [])
            + [("unleash-connection-id", options.connectionID), ("unleash-sdk", UnleashRequestHeaders.sdkIdentifier)]
        self.customHeaders = customHeaders
        self.customHeadersProvider = customHeadersProvider
        self.refreshInterval = max(refreshInterval, .milliseconds(1))
        self.metricsInterval = max(metricsInterval, .milliseconds(1))
        self.disableMetrics = disableMetrics
        self.options = options
    }
}

/// The machinery both Unleash clients share, one per client: the state lock, polling with its ETag, backoff and
/// halting rules, persistence of answers, events, metrics (periodic, on demand and at `stop()`), the remote
/// source status and the registry link. The client says what differs in an ``UnleashFeed``.
///
/// Everything the poller starts runs on its own ``UnleashExecutor``. Locks are held only to copy or swap values;
/// handlers, I/O and the feed's `decode` and `snapshot` run outside them.
final class UnleashPoller<Model: Sendable, Answer: Sendable>: Sendable {
    struct State: Sendable {
        var model: Model
        var eTag: String?
        /// Bumped by ``invalidate(_:)``: an answer to a request made before is dropped.
        var generation = 0
        var fetch = UnleashFetchStatus()
        var running = false
        /// Problems found before anyone could subscribe (an unreadable snapshot), sent at `start()`.
        var pendingFailures: [UnleashClientFailure]
    }

    let settings: UnleashPollerSettings
    let feed: UnleashFeed<Model, Answer>
    let hub = UnleashEventHub()
    let metrics: UnleashMetricsCounter
    let executor: UnleashExecutor
    /// The client's HTTP session: polls, metrics posts and registration reuse its connection. Invalidated by
    /// `stop()` (after the last metrics post) and when the client is released.
    let transport: RemoteHTTPTransport
    private let snapshots: UnleashSnapshotStore?
    private let state: AnnotatedMutex<State>
    private let gate = UnleashAsyncGate()
    private let tasks = UnleashTaskSet()
    /// Subscriptions that keep registry links alive as long as the client.
    private let links = AnnotatedMutex([UnleashEventSubscription]())

    init(settings: UnleashPollerSettings, feed: UnleashFeed<Model, Answer>, model: Model,
         snapshots: UnleashSnapshotStore?, pendingFailures: [UnleashClientFailure], label: String) {
        self.settings = settings
        self.feed = feed
        self.snapshots = snapshots
        let options = settings.options
        executor = UnleashExecutor(label: "flagstaff.unleash.\(label)")
        transport = RemoteHTTPTransport(label: "flagstaff.unleash.\(label)",
                                        maximumResponseBytes: options.maximumResponseBytes)
        metrics = UnleashMetricsCounter(now: options.now)
        state = AnnotatedMutex(State(model: model, pendingFailures: pendingFailures))
    }

    deinit {
        tasks.cancelAll()
    }

    var options: UnleashClientOptions { settings.options }

    // MARK: State

    /// Reads the model under the lock.
    func read<T: Sendable>(_ body: (Model) -> T) -> T {
        state.withLock { body($0.model) }
    }

    /// Changes the model so that answers to requests made before are dropped and the ETag is forgotten.
    /// - Returns: Whether the client is started.
    func invalidate(_ change: (inout Model) -> Void) -> Bool {
        state.withLock { state in
            change(&state.model)
            state.generation += 1
            state.eTag = nil
            return state.running
        }
    }

    var isRunning: Bool { state.withLock { $0.running } }

    var lastFetchTime: Date? { state.withLock { $0.fetch.lastFetch } }

    /// The wait before the next poll, `nil` after 401/403/404.
    var currentPollInterval: Duration? {
        let base = settings.refreshInterval
        return state.withLock { $0.fetch.halted == nil ? $0.fetch.delay(base: base) : nil }
    }

    /// The status the registry's tools show.
    var status: RemoteSourceStatus {
        let now = options.now()
        let base = settings.refreshInterval
        return state.withLock { $0.fetch.remoteStatus(base: base, now: now) }
    }

    // MARK: Lifecycle

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
            tasks.replace("metrics", with: UnleashTaskSet.loop(
                owner: self, executor: executor,
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

    private func startPolling() {
        let base = settings.refreshInterval
        tasks.replace("poll", with: UnleashTaskSet.loop(
            owner: self, executor: executor,
            interval: { poller in
                poller.state.withLock { state in
                    guard state.running, state.fetch.halted == nil else { return nil }
                    return state.fetch.delay(base: base)
                }
            },
            body: { poller in await poller.gate.run { await poller.performFetch() } }))
    }

    // MARK: Fetching

    /// Fetches now, after any fetch already running, and applies the answer.
    func fetch() async {
        await executor.run { await gate.run { await self.performFetch() } }
    }

    /// Fetches now; after 401/403/404 stopped polling, a successful fetch starts it again.
    func refresh() async {
        let wasHalted = state.withLock { $0.fetch.halted != nil }
        await fetch()
        let resume = state.withLock { $0.running && $0.fetch.halted == nil }
        if wasHalted && resume { startPolling() }
    }

    /// The client's header fields, then `own`, then the accepted custom ones.
    func headers(_ own: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let custom = [settings.customHeaders] + (settings.customHeadersProvider.map { [$0()] } ?? [])
        return UnleashRequestHeaders.merge(own: settings.headers + own, custom: custom)
    }

    /// Sends a request on the client's executor, within ``UnleashClientOptions/timeout``.
    func send(_ request: RemoteHTTPRequest) async throws(UnleashClientError) -> RemoteHTTPResponse {
        let timeout = options.timeout
        let transport = self.transport
        return try await executor.run { await transport.send(request, timeout: timeout) }
            .mapError(UnleashClientError.init).get()
    }

    private func performFetch() async {
        let (model, generation, eTag) = state.withLock { ($0.model, $0.generation, $0.eTag) }
        var own: [(name: String, value: String)] = [("Accept", "application/json")]
        if let eTag, !eTag.isEmpty { own.append(("If-None-Match", eTag)) }
        let request = RemoteHTTPRequest(method: "GET", url: feed.url(model), headers: headers(own))
        let endpoint = feed.endpoint.absoluteString
        do throws(UnleashClientError) {
            let response = try await send(request)
            switch response.status {
            case 200:
                let answer = try feed.decode(response.body, "body from \(endpoint)")
                apply(answer, body: response.body, eTag: response.header("etag"), generation: generation)
            case 304:
                let now = options.now()
                if state.withLock({ $0.fetch.recordSuccess(at: now) }) { hub.emit(.ready) }
            default:
                throw .httpStatus(response.status, url: endpoint)
            }
        } catch {
            // A fetch abandoned by stop() is not a failure of the server.
            if Task.isCancelled { return }
            let now = options.now()
            let limit = options.maximumBackoffMultiplier
            state.withLock { $0.fetch.recordFailure(error, at: now, maximumMultiplier: limit) }
            hub.emit(.error(UnleashClientFailure(operation: .fetch, error: error)))
        }
    }

    private func apply(_ answer: Answer, body: Data, eTag: String?, generation: Int) {
        let now = options.now()
        let install = feed.install
        let outcome = state.withLock { state -> (first: Bool, changed: [String])? in
            guard state.generation == generation else { return nil }
            let changed = install(&state.model, answer)
            state.eTag = eTag
            return (state.fetch.recordSuccess(at: now), changed)
        }
        guard let outcome else { return }
        if outcome.first || !outcome.changed.isEmpty { persist(answer, body: body) }
        if outcome.first { hub.emit(.ready) }
        if !outcome.changed.isEmpty { hub.emit(.update(changed: outcome.changed)) }
    }

    private func persist(_ answer: Answer, body: Data) {
        guard let snapshots else { return }
        do throws(UnleashClientError) {
            try snapshots.save(feed.snapshot(answer, body))
        } catch {
            hub.emit(.error(UnleashClientFailure(operation: .persist, error: error)))
        }
    }

    // MARK: Metrics

    /// Posts the counts gathered since the last post, if there are any.
    func flushMetrics() async {
        guard !settings.disableMetrics, let bucket = metrics.takeBucket() else { return }
        await executor.run { await post(bucket) }
    }

    /// Posts a bucket to `{url}/client/metrics`: a 2xx sends `sent`, anything else puts the counts back and sends
    /// an error event.
    private func post(_ bucket: UnleashMetricsBucket) async {
        let target = settings.url.appendingPathComponent("client").appendingPathComponent("metrics")
        do throws(UnleashClientError) {
            let body = try UnleashMetricsPost(appName: settings.appName, environment: settings.environment,
                                              instanceId: settings.instanceID, bucket: bucket).encoded()
            let request = RemoteHTTPRequest(method: "POST", url: target,
                                            headers: headers([("Content-Type", "application/json")]), body: body)
            let response = try await send(request)
            guard (200...299).contains(response.status) else {
                throw .httpStatus(response.status, url: target.absoluteString)
            }
            hub.emit(.sent(bucket))
        } catch {
            metrics.restore(bucket)
            hub.emit(.error(UnleashClientFailure(operation: .metrics, error: error)))
        }
    }

    // MARK: Registry

    /// Links a registry to `source` (the client owning this poller); the link lives as long as the poller.
    func attach(source: any UnleashToggleSource, to registry: FeatureRegistry, group: String) {
        let link = UnleashRegistryLink.install(source: source, hub: hub, registry: registry, group: group)
        links.withLock { $0.append(link) }
    }
}

/// The body of a metrics post.
struct UnleashMetricsPost: Encodable {
    var appName: String
    var environment: String?
    var instanceId: String
    var bucket: UnleashMetricsBucket

    /// The JSON, keys sorted.
    func encoded() throws(UnleashClientError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return try encoder.encode(self)
        } catch {
            throw .invalidResponse("cannot encode the metrics body: \(error)")
        }
    }
}

/// The background tasks of a client (polling, metrics), cancelled together by `stop()`.
final class UnleashTaskSet: Sendable {
    private let tasks = AnnotatedMutex([String: Task<Void, Never>]())

    /// Starts `task` under `name`, cancelling the one it replaces.
    func replace(_ name: String, with task: Task<Void, Never>) {
        let old = tasks.withLock { $0.updateValue(task, forKey: name) }
        old?.cancel()
    }

    /// Cancels every task.
    func cancelAll() {
        let all = tasks.withLock { tasks -> [Task<Void, Never>] in
            defer { tasks.removeAll() }
            return Array(tasks.values)
        }
        all.forEach { $0.cancel() }
    }

    /// Runs `body` every `interval` on `executor` until cancelled, until `interval` is `nil` or the owner is gone.
    static func loop<Owner: AnyObject & Sendable>(
        owner: Owner, executor: UnleashExecutor, interval: @escaping @Sendable (Owner) -> Duration?,
        body: @escaping @Sendable (Owner) async -> Void
    ) -> Task<Void, Never> {
        executor.task { [weak owner] in
            while true {
                guard let wait = owner.flatMap(interval), await UnleashDeadline.sleep(for: wait),
                      !Task.isCancelled, let current = owner else { return }
                await body(current)
            }
        }
    }
}
