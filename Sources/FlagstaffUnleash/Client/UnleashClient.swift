import Flagstaff
import Foundation

/// A client of the Unleash frontend API (Unleash's `/api/frontend`, Unleash Edge or the Unleash proxy): it
/// fetches the toggles evaluated for one context and answers `isEnabled` and `variant` from memory.
///
/// ```swift
/// let unleash = UnleashClient(url: URL(string: "https://edge.example.com/api/frontend")!,
///                             clientKey: "default:production.abc", appName: "moments",
///                             context: UnleashContext(userId: "42"),
///                             options: UnleashClientOptions(storageDirectory: cacheURL))
/// let events = unleash.onEvent { event in print(event) }
/// await unleash.start()
/// if unleash.isEnabled("checkout.newFlow") { … }
/// await unleash.updateContext(UnleashContext(userId: "43"))   // fetches again at once
/// ```
///
/// Each poll is `GET {url}?{context}` (see ``UnleashRequestHeaders`` for the headers). HTTP 304 keeps the
/// toggles; 401, 403 and 404 stop polling with an error event; 429 and 5xx back off (one more refresh interval
/// per failure in a row, capped, back to normal after a success); timeouts, refused connections and bad
/// bodies only report an error. In every failure case the client keeps serving what it had: the last fetched
/// toggles, else the persisted ones, else the bootstrap.
///
/// Thread-safety: every member may be used from any thread. Reads take one lock and never do I/O; event
/// handlers run on the client's tasks (fetches, metrics) or, for impressions, on the reading thread, and must
/// not block.
public final class UnleashClient: Sendable {
    /// The frontend API endpoint, e.g. `https://edge.example.com/api/frontend`.
    public let url: URL
    /// The application name sent with every request.
    public let appName: String
    /// The environment sent in the query and with metrics.
    public let environment: String
    /// The normal time between polls.
    public let refreshInterval: Duration
    /// The time between metrics posts.
    public let metricsInterval: Duration
    /// Whether metrics are neither counted nor sent.
    public let disableMetrics: Bool
    /// Timeouts, limits, backoff, persistence and the clock.
    public let options: UnleashClientOptions

    let clientKey: String
    let customHeaders: [String: String]
    let customHeadersProvider: (@Sendable () -> [String: String])?
    let transport: UnleashHTTPTransport
    let hub = UnleashEventHub()
    let metrics: UnleashMetricsCounter
    let gate = UnleashAsyncGate()
    let tasks = UnleashTaskSet()
    let snapshots: UnleashSnapshotStore?
    let state: AnnotatedMutex<State>
    /// Subscriptions that keep registry links alive as long as the client.
    let links = AnnotatedMutex([UnleashEventSubscription]())

    struct State: Sendable {
        var toggles: [String: UnleashToggle] = [:]
        var order: [String] = []
        var hasToggles = false
        var context: UnleashContext
        var contextGeneration = 0
        var eTag: String?
        var fetch = UnleashFetchStatus()
        var running = false
        /// Problems found before anyone could subscribe (an unreadable snapshot), sent at `start()`.
        var pendingFailures: [UnleashClientFailure] = []
    }

    /// Creates a client; nothing is fetched until ``start()``.
    ///
    /// The client serves, until its first successful fetch, the toggles persisted in
    /// ``UnleashClientOptions/storageDirectory`` by an earlier run if there are any, else `bootstrap`.
    /// - Parameters:
    ///   - url: The frontend API endpoint.
    ///   - clientKey: The frontend (client) key, sent as `Authorization`.
    ///   - appName: The application name.
    ///   - environment: The environment (default `default`).
    ///   - refreshInterval: The time between polls (default 30 s).
    ///   - metricsInterval: The time between metrics posts (default 30 s).
    ///   - disableMetrics: `true` to neither count nor send metrics.
    ///   - context: The initial context (user, session, address, properties).
    ///   - customHeaders: Extra header fields for every request; reserved ones are ignored (``UnleashRequestHeaders``).
    ///   - customHeadersProvider: Called before every request for more header fields (e.g. a fresh token);
    ///     its fields win over `customHeaders`; reserved ones are ignored.
    ///   - bootstrap: Toggles to serve before the first fetch when nothing was persisted.
    ///   - options: Timeouts, limits, backoff, persistence and the clock.
    public init(url: URL, clientKey: String, appName: String, environment: String = "default",
                refreshInterval: Duration = .seconds(30), metricsInterval: Duration = .seconds(30),
                disableMetrics: Bool = false, context: UnleashContext = UnleashContext(),
                customHeaders: [String: String] = [:],
                customHeadersProvider: (@Sendable () -> [String: String])? = nil,
                bootstrap: UnleashBootstrap? = nil, options: UnleashClientOptions = UnleashClientOptions()) {
        self.url = url
        self.clientKey = clientKey
        self.appName = appName
        self.environment = environment
        self.refreshInterval = max(refreshInterval, .milliseconds(1))
        self.metricsInterval = max(metricsInterval, .milliseconds(1))
        self.disableMetrics = disableMetrics
        self.customHeaders = customHeaders
        self.customHeadersProvider = customHeadersProvider
        self.options = options
        self.transport = UnleashHTTPTransport(timeout: options.timeout, maximumResponseBytes: options.maximumResponseBytes)
        self.metrics = UnleashMetricsCounter(now: options.now)
        self.snapshots = options.storageDirectory.map { UnleashSnapshotStore(directory: $0, fileName: "unleash-frontend-toggles.json") }

        var initial = State(context: context)
        let (persisted, failure) = Self.loadSnapshot(snapshots)
        if let failure { initial.pendingFailures.append(failure) }
        if let toggles = persisted ?? bootstrap?.toggles {
            initial.install(toggles)
        }
        state = AnnotatedMutex(initial)
    }

    deinit {
        tasks.cancelAll()
    }

    // MARK: Lifecycle

    /// Fetches toggles once, then polls every ``refreshInterval`` and posts metrics every ``metricsInterval``.
    ///
    /// Returns after the first fetch, whatever its outcome (check the events or ``status``). Calling it while
    /// started does nothing.
    public func start() async {
        let pending = state.withLock { state -> [UnleashClientFailure]? in
            guard !state.running else { return nil }
            state.running = true
            defer { state.pendingFailures = [] }
            return state.pendingFailures
        }
        guard let pending else { return }
        pending.forEach { hub.emit(.error($0)) }
        await fetchToggles()
        startPolling()
        if !disableMetrics {
            tasks.replace("metrics", with: UnleashTaskSet.loop(
                owner: self,
                interval: { client in client.state.withLock { $0.running } ? client.metricsInterval : nil },
                body: { client in await client.flushMetrics() }))
        }
    }

    /// Stops polling and metrics. Toggles stay readable. Counts not yet sent stay in memory; call
    /// ``flushMetrics()`` first to send them.
    public func stop() {
        state.withLock { $0.running = false }
        tasks.cancelAll()
    }

    /// Whether the client is started (polling, unless a 401/403/404 stopped it).
    public var isRunning: Bool { state.withLock { $0.running } }

    func startPolling() {
        tasks.replace("poll", with: UnleashTaskSet.loop(
            owner: self,
            interval: { client in client.nextPollDelay },
            body: { client in await client.fetchToggles() }))
    }

    /// The wait before the next poll, or `nil` when stopped or halted by 401/403/404.
    var nextPollDelay: Duration? {
        state.withLock { state in
            guard state.running, state.fetch.halted == nil else { return nil }
            return state.fetch.delay(base: refreshInterval)
        }
    }

    // MARK: Reading

    /// Whether a toggle is on for the current context. Unknown toggles are off.
    ///
    /// Counts the evaluation for metrics and, when the toggle has `impressionData`, sends an impression event.
    /// - Parameter name: The toggle's name.
    /// - Returns: `true` when the toggle is on.
    public func isEnabled(_ name: String) -> Bool {
        let (toggle, context) = state.withLock { state in
            let toggle = state.toggles[name]
            return (toggle, toggle?.impressionData == true ? state.context : nil)
        }
        let enabled = toggle?.enabled ?? false
        if !disableMetrics { metrics.count(name, enabled: enabled) }
        if let context {
            hub.emit(.impression(UnleashImpression(kind: .isEnabled, featureName: name, enabled: enabled, variant: nil, context: context)))
        }
        return enabled
    }

    /// The variant of a toggle for the current context: name, enabled, feature_enabled and payload.
    ///
    /// Unknown toggles give `disabled` with `featureEnabled == false`. Counts the lookup for metrics (yes/no and
    /// the variant's name) and sends an impression event for toggles with `impressionData`.
    /// - Parameter name: The toggle's name.
    /// - Returns: The variant.
    public func variant(_ name: String) -> UnleashVariant {
        let (toggle, context) = state.withLock { state in
            let toggle = state.toggles[name]
            return (toggle, toggle?.impressionData == true ? state.context : nil)
        }
        let variant = toggle?.variant ?? .disabled(featureEnabled: false)
        if !disableMetrics { metrics.count(name, enabled: toggle?.enabled ?? false, variant: variant.name) }
        if let context {
            hub.emit(.impression(UnleashImpression(
                kind: .getVariant, featureName: name, enabled: toggle?.enabled ?? false, variant: variant.name, context: context)))
        }
        return variant
    }

    /// The toggle as last received, without counting it for metrics, or `nil` if the client has none by that name.
    /// - Parameter name: The toggle's name.
    /// - Returns: The toggle.
    public func toggle(named name: String) -> UnleashToggle? {
        state.withLock { $0.toggles[name] }
    }

    /// Every toggle the client serves, in the order the server (or bootstrap) listed them.
    public var toggles: [UnleashToggle] {
        state.withLock { state in state.order.compactMap { state.toggles[$0] } }
    }

    /// Whether the client has toggles from any source (fetched, persisted or bootstrap).
    public var hasToggles: Bool { state.withLock { $0.hasToggles } }

    /// When toggles were last fetched successfully, or `nil`.
    public var lastFetchTime: Date? { state.withLock { $0.fetch.lastFetch } }

    /// The current context.
    public var context: UnleashContext { state.withLock { $0.context } }

    /// The time until the next poll: ``refreshInterval``, longer while backing off, `nil` when polling is
    /// stopped (``stop()`` or HTTP 401/403/404).
    public var currentPollInterval: Duration? {
        state.withLock { state in
            state.fetch.halted == nil ? state.fetch.delay(base: refreshInterval) : nil
        }
    }

    // MARK: Context

    /// Replaces the context and, when started, fetches toggles for it at once (returning after that fetch).
    ///
    /// A fetch already running for the old context finishes first; its answer is dropped.
    /// - Parameters:
    ///   - context: The new context.
    ///   - properties: More custom properties, merged over `context.properties`.
    public func updateContext(_ context: UnleashContext, properties: [String: String] = [:]) async {
        var merged = context
        merged.properties.merge(properties) { _, new in new }
        let running = state.withLock { state -> Bool in
            state.context = merged
            state.contextGeneration += 1
            state.eTag = nil
            return state.running
        }
        if running { await fetchToggles() }
    }

    // MARK: Events

    /// Calls `handler` for every event from now on.
    /// - Parameter handler: The callback; it runs on the client's tasks and must not block.
    /// - Returns: A subscription; keep it, and cancel or drop it to stop the callbacks.
    public func onEvent(_ handler: @escaping @Sendable (UnleashClientEvent) -> Void) -> UnleashEventSubscription {
        hub.subscribe(handler)
    }

    /// A stream of every event from now until the consumer stops iterating.
    public var events: AsyncStream<UnleashClientEvent> { hub.stream }
}

extension UnleashClient.State {
    /// Serves `toggles` from now on.
    /// - Returns: The names of toggles added, removed or changed, sorted.
    @discardableResult
    mutating func install(_ list: [UnleashToggle]) -> [String] {
        var next: [String: UnleashToggle] = [:]
        var order: [String] = []
        for toggle in list where next.updateValue(toggle, forKey: toggle.name) == nil { order.append(toggle.name) }
        let names = Set(toggles.keys).union(next.keys)
        let changed = names.filter { toggles[$0] != next[$0] }.sorted()
        toggles = next
        self.order = order
        hasToggles = true
        return changed
    }
}
