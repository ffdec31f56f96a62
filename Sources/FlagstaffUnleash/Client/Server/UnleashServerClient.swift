import Flagstaff
import Foundation

/// A server-side Unleash client: it polls the client API (`/api/client/features`), registers the application,
/// sends metrics, and evaluates flags locally with ``UnleashEngine`` for any context, like Unleash's server SDKs.
///
/// ```swift
/// let unleash = try UnleashServerClient(url: URL(string: "https://unleash.example.com/api")!,
///                                       apiKey: "*:production.abc", appName: "checkout-service",
///                                       options: UnleashClientOptions(storageDirectory: cacheURL))
/// await unleash.start()
/// if unleash.isEnabled("checkout.new-flow", context: UnleashContext(userId: user.id)) { … }
/// ```
///
/// Polling follows the same rules as ``UnleashClient``: the ETag is sent as `If-None-Match` and a 304 keeps the
/// state; 401/403/404 stop polling; 429/5xx back off; timeouts, refused connections and bodies the engine rejects
/// keep the last-known-good state (fetched, else persisted, else the bootstrap). Each successful full answer is
/// persisted (atomically) when a storage directory is given, and loaded at the next launch.
///
/// Thread-safety: every member may be used from any thread; evaluations take the engine's lock and the metrics
/// lock, never do I/O.
public final class UnleashServerClient: Sendable {
    /// The API base, e.g. `https://unleash.example.com/api`; requests go to `{url}/client/…`.
    public let url: URL
    /// The application name.
    public let appName: String
    /// This instance's id, sent as `unleash-instanceid` and in registration and metrics.
    public let instanceID: String
    /// The environment, sent with metrics and put into contexts that have none.
    public let environment: String?
    /// The normal time between polls.
    public let refreshInterval: Duration
    /// The time between metrics posts.
    public let metricsInterval: Duration
    /// Whether metrics are neither counted nor sent.
    public let disableMetrics: Bool
    /// The context used when none is given (and by registry flags).
    public let defaultContext: UnleashContext
    /// The local evaluation engine holding the current state.
    public let engine: UnleashEngine
    /// Timeouts, limits, backoff, persistence and the clock.
    public let options: UnleashClientOptions

    let apiKey: String
    let customHeaders: [String: String]
    let customHeadersProvider: (@Sendable () -> [String: String])?
    let transport: UnleashHTTPTransport
    let hub = UnleashEventHub()
    let metrics: UnleashMetricsCounter
    let gate = UnleashAsyncGate()
    let tasks = UnleashTaskSet()
    let snapshots: UnleashSnapshotStore?
    let state: AnnotatedMutex<State>
    let links = AnnotatedMutex([UnleashEventSubscription]())
    let startedAt: Date

    struct State: Sendable {
        var eTag: String?
        var fetch = UnleashFetchStatus()
        var running = false
        var hasState = false
        /// Each feature's definition as canonical JSON, to tell which features an answer changed.
        var definitions: [String: Data] = [:]
        var pendingFailures: [UnleashClientFailure] = []
    }

    /// Creates a client; nothing is sent until ``start()``.
    /// - Parameters:
    ///   - url: The API base (ending in `/api`).
    ///   - apiKey: A client (backend) API token, sent as `Authorization`.
    ///   - appName: The application name.
    ///   - instanceID: This instance's id (default: `flagstaff-` and the host name).
    ///   - environment: The environment, if any.
    ///   - refreshInterval: The time between polls (default 15 s).
    ///   - metricsInterval: The time between metrics posts (default 60 s).
    ///   - disableMetrics: `true` to neither count nor send metrics (and not register).
    ///   - context: The default context for evaluations without one.
    ///   - customHeaders: Extra header fields; reserved ones are ignored (``UnleashRequestHeaders``).
    ///   - customHeadersProvider: Called before every request for more header fields.
    ///   - bootstrap: A `/api/client/features` body to evaluate until the first fetch when nothing was persisted.
    ///   - options: Timeouts, limits, backoff, persistence and the clock.
    /// - Throws: ``UnleashClientError/invalidBootstrap(_:)`` when `bootstrap` is not a valid state, naming the JSON path.
    public init(url: URL, apiKey: String, appName: String,
                instanceID: String = "flagstaff-\(ProcessInfo.processInfo.hostName)", environment: String? = nil,
                refreshInterval: Duration = .seconds(15), metricsInterval: Duration = .seconds(60),
                disableMetrics: Bool = false, context: UnleashContext = UnleashContext(),
                customHeaders: [String: String] = [:],
                customHeadersProvider: (@Sendable () -> [String: String])? = nil,
                bootstrap: Data? = nil, options: UnleashClientOptions = UnleashClientOptions()) throws(UnleashClientError) {
        self.url = url
        self.apiKey = apiKey
        self.appName = appName
        self.instanceID = instanceID
        self.environment = environment
        self.refreshInterval = max(refreshInterval, .milliseconds(1))
        self.metricsInterval = max(metricsInterval, .milliseconds(1))
        self.disableMetrics = disableMetrics
        var context = context
        if context.appName == nil { context.appName = appName }
        if context.environment == nil { context.environment = environment }
        self.defaultContext = context
        self.customHeaders = customHeaders
        self.customHeadersProvider = customHeadersProvider
        self.options = options
        self.engine = UnleashEngine()
        self.transport = UnleashHTTPTransport(timeout: options.timeout, maximumResponseBytes: options.maximumResponseBytes)
        self.metrics = UnleashMetricsCounter(now: options.now)
        self.snapshots = options.storageDirectory.map { UnleashSnapshotStore(directory: $0, fileName: "unleash-client-features.json") }
        self.startedAt = options.now()

        var initial = State()
        var loaded = false
        if let snapshots {
            do throws(UnleashClientError) {
                if let data = try snapshots.load() {
                    try Self.take(data, into: engine, source: snapshots.fileURL.path)
                    initial.definitions = Self.definitions(of: data)
                    loaded = true
                }
            } catch {
                let error: UnleashClientError = if case .invalidResponse(let message) = error { .persistence(message) } else { error }
                initial.pendingFailures.append(UnleashClientFailure(operation: .persist, error: error))
            }
        }
        if !loaded, let bootstrap {
            do {
                try Self.take(bootstrap, into: engine, source: "bootstrap")
            } catch {
                if case .invalidResponse(let message) = error { throw .invalidBootstrap(message) }
                throw error
            }
            initial.definitions = Self.definitions(of: bootstrap)
            loaded = true
        }
        initial.hasState = loaded
        state = AnnotatedMutex(initial)
    }

    deinit {
        tasks.cancelAll()
    }

    /// Registers the application (unless metrics are disabled), fetches the state once, then polls every
    /// ``refreshInterval`` and posts metrics every ``metricsInterval``. Returns after the first fetch.
    public func start() async {
        let pending = state.withLock { state -> [UnleashClientFailure]? in
            guard !state.running else { return nil }
            state.running = true
            defer { state.pendingFailures = [] }
            return state.pendingFailures
        }
        guard let pending else { return }
        pending.forEach { hub.emit(.error($0)) }
        if !disableMetrics { await register() }
        await fetchFeatures()
        startPolling()
        if !disableMetrics {
            tasks.replace("metrics", with: UnleashTaskSet.loop(
                owner: self,
                interval: { client in client.state.withLock { $0.running } ? client.metricsInterval : nil },
                body: { client in await client.flushMetrics() }))
        }
    }

    /// Stops polling and metrics; evaluations go on with the last state.
    public func stop() {
        state.withLock { $0.running = false }
        tasks.cancelAll()
    }

    func startPolling() {
        tasks.replace("poll", with: UnleashTaskSet.loop(
            owner: self,
            interval: { client in
                client.state.withLock { state in
                    guard state.running, state.fetch.halted == nil else { return nil }
                    return state.fetch.delay(base: client.refreshInterval)
                }
            },
            body: { client in await client.fetchFeatures() }))
    }

    // MARK: Evaluation

    /// Whether a flag is on for a context (the default context when `nil`; missing `appName` and `environment`
    /// are filled from the client). Counts the evaluation for metrics.
    /// - Parameters:
    ///   - name: The flag's name.
    ///   - context: The context, or `nil` for ``defaultContext``.
    /// - Returns: `true` when the flag is on; unknown flags are off.
    public func isEnabled(_ name: String, context: UnleashContext? = nil) -> Bool {
        let enabled = engine.isEnabled(name, context: complete(context))
        if !disableMetrics { metrics.count(name, enabled: enabled) }
        return enabled
    }

    /// The variant of a flag for a context. Counts the lookup for metrics.
    /// - Parameters:
    ///   - name: The flag's name.
    ///   - context: The context, or `nil` for ``defaultContext``.
    /// - Returns: The variant; `disabled` for unknown or disabled flags.
    public func variant(_ name: String, context: UnleashContext? = nil) -> UnleashVariant {
        let variant = engine.variant(name, context: complete(context))
        if !disableMetrics { metrics.count(name, enabled: variant.featureEnabled, variant: variant.name) }
        return variant
    }

    func complete(_ context: UnleashContext?) -> UnleashContext {
        guard var context else { return defaultContext }
        if context.appName == nil { context.appName = appName }
        if context.environment == nil { context.environment = environment }
        return context
    }

    /// When the state was last fetched successfully, or `nil`.
    public var lastFetchTime: Date? { state.withLock { $0.fetch.lastFetch } }

    /// The time until the next poll, longer while backing off; `nil` after 401/403/404 stopped polling.
    public var currentPollInterval: Duration? {
        state.withLock { $0.fetch.halted == nil ? $0.fetch.delay(base: refreshInterval) : nil }
    }

    // MARK: Events

    /// Calls `handler` for every event from now on (no impressions in this mode).
    /// - Parameter handler: The callback; it must not block.
    /// - Returns: A subscription; keep it, and cancel or drop it to stop the callbacks.
    public func onEvent(_ handler: @escaping @Sendable (UnleashClientEvent) -> Void) -> UnleashEventSubscription {
        hub.subscribe(handler)
    }

    /// A stream of every event from now until the consumer stops iterating.
    public var events: AsyncStream<UnleashClientEvent> { hub.stream }
}
