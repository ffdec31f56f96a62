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
/// Each poll is `GET {url}?{context}` with the client's header fields (`Authorization`, `unleash-*`), then the custom
/// ones, which can never replace those, `Content-Type` or `If-None-Match`. HTTP 304 keeps the
/// toggles; 401 and 403 stop polling with an error event (until a fetch succeeds again); 404, 429 and 5xx back
/// off (one more refresh interval per failure in a row, capped, back to normal after a success); timeouts, refused
/// connections and bad bodies only report an error. In every failure case the client keeps serving what it had:
/// the last fetched toggles, else the bootstrap or the persisted ones (see
/// ``UnleashClientOptions/bootstrapOverride``).
///
/// The context always has a `sessionId`: the one given, else the one persisted by an earlier run, else a new
/// random one; it is persisted with the toggles and kept by ``updateContext(_:properties:)`` when the new context
/// has none, so gradual rollouts by session stay put.
///
/// Thread-safety: every member may be used from any thread. Reads take no lock on the toggles (they are published
/// atomically) and never do I/O; counting for metrics takes a per-thread lock nobody else contends for. Event
/// handlers run on the client's tasks (fetches, metrics) or, for impressions, on the reading thread, and must
/// not block.
public final class UnleashClient: Sendable {
    /// The frontend API endpoint, e.g. `https://edge.example.com/api/frontend`.
    public let url: URL
    /// The application name sent with every request.
    public let appName: String
    /// The environment sent in the query and with metrics.
    public let environment: String
    /// The normal time between polls; zero (or less) means no polling after the first fetch.
    public let refreshInterval: Duration
    /// The time between metrics posts; zero (or less) means no periodic posts (``flushMetrics()`` and ``stop()``
    /// still send).
    public let metricsInterval: Duration
    /// The connection id sent as `unleash-connection-id` and as `instanceId` of metrics: a new UUID per client
    /// unless ``UnleashClientOptions/connectionID`` pins one.
    public var connectionID: String { poller.settings.connectionID }
    /// Whether metrics are neither counted nor sent.
    public let disableMetrics: Bool
    /// Timeouts, limits, backoff, persistence and the clock.
    public let options: UnleashClientOptions

    /// Polling, events, metrics and the registry link, shared with ``UnleashServerClient``.
    let poller: UnleashPoller<Model, [UnleashToggle]>

    /// What the client serves: the toggles and the context they were fetched for.
    struct Model: Sendable {
        var toggles: [String: UnleashToggle] = [:]
        var order: [String] = []
        var hasToggles = false
        var context: UnleashContext
    }

    /// Creates a client; nothing is fetched until ``start()``.
    ///
    /// The client serves, until its first successful fetch, `bootstrap` (if it has toggles), else the toggles
    /// persisted in ``UnleashClientOptions/storageDirectory`` by an earlier run; with
    /// ``UnleashClientOptions/bootstrapOverride`` `false`, persisted toggles win over the bootstrap.
    /// - Parameters:
    ///   - url: The frontend API endpoint.
    ///   - clientKey: The frontend (client) key, sent as `Authorization`.
    ///   - appName: The application name.
    ///   - environment: The environment (default `default`).
    ///   - refreshInterval: The time between polls (default 30 s); `.zero` fetches only at ``start()`` and on request.
    ///   - metricsInterval: The time between metrics posts (default 30 s); `.zero` turns periodic posts off.
    ///   - disableMetrics: `true` to neither count nor send metrics.
    ///   - context: The initial context (user, session, address, properties); without a `sessionId` the client
    ///     uses the persisted one or makes one.
    ///   - customHeaders: Extra header fields for every request; `Authorization`, `Content-Type`, `If-None-Match`,
    ///     `unleash-*` and malformed fields are ignored.
    ///   - customHeadersProvider: Called before every request for more header fields (e.g. a fresh token);
    ///     its fields win over `customHeaders`; reserved ones are ignored.
    ///   - bootstrap: Toggles to serve before the first fetch when nothing was persisted.
    ///   - options: Timeouts, limits, backoff, persistence and the clock.
    public init(
        url: URL, clientKey: String, appName: String, environment: String = "default",
        refreshInterval: Duration = .seconds(30), metricsInterval: Duration = .seconds(30),
        disableMetrics: Bool = false, context: UnleashContext = UnleashContext(),
        customHeaders: [String: String] = [:],
        customHeadersProvider: (@Sendable () -> [String: String])? = nil,
        bootstrap: UnleashBootstrap? = nil, options: UnleashClientOptions = UnleashClientOptions()
    ) {
        let settings = UnleashPollerSettings(
            url: url, key: clientKey, appName: appName, environment: environment, instanceID: nil,
            customHeaders: customHeaders, customHeadersProvider: customHeadersProvider,
            refreshInterval: refreshInterval,
            metricsInterval: metricsInterval, disableMetrics: disableMetrics, options: options)
        (self.url, self.appName, self.environment, self.options) = (url, appName, environment, options)
        (self.refreshInterval, self.metricsInterval, self.disableMetrics) =
            (refreshInterval, metricsInterval, disableMetrics)
        let snapshots = options.storageDirectory.map {
            UnleashSnapshotStore(directory: $0, kind: "frontend", appName: appName, url: url)
        }
        let (persisted, failure) = Self.loadSnapshot(snapshots)
        var context = context
        if context.sessionId?.isEmpty ?? true {
            context.sessionId = persisted?.sessionId.flatMap { $0.isEmpty ? nil : $0 } ?? Self.makeSessionID()
        }
        var model = Model(context: context)
        let bootstrapToggles = bootstrap.flatMap { $0.toggles.isEmpty ? nil : $0.toggles }
        let initial =
            options.bootstrapOverride
            ? bootstrapToggles ?? persisted?.toggles : persisted?.toggles ?? bootstrapToggles
        if let initial { model.install(initial) }
        poller = UnleashPoller(
            settings: settings, feed: Self.feed(url: url, appName: appName, environment: environment),
            model: model, snapshots: snapshots, pendingFailures: failure.map { [$0] } ?? [],
            label: "frontend")
    }

    // MARK: Lifecycle

    /// Fetches toggles once, then polls every ``refreshInterval`` and posts metrics every ``metricsInterval``.
    ///
    /// Returns after the first fetch, whatever its outcome (check the events or ``status``). Calling it while
    /// started does nothing.
    public func start() async {
        await poller.start()
    }

    /// Stops polling and periodic metrics, and sends the counts not sent yet once, in the background (within
    /// ``UnleashClientOptions/timeout``; a failure is an `error` event and the counts stay for a later
    /// ``flushMetrics()``). Returns at once; toggles stay readable. To wait for that last post, use
    /// ``stop(flushingMetrics:)``.
    public func stop() {
        poller.stop()
    }

    /// Stops polling and periodic metrics and, with `flushingMetrics`, sends the counts not sent yet and returns
    /// when the server answered, at the latest after ``UnleashClientOptions/timeout``. Never throws: a failed post
    /// is an `error` event and its counts stay for a later ``flushMetrics()``. With `flushingMetrics: false` the
    /// counts stay in memory.
    /// - Parameter flushingMetrics: Whether to send the pending counts.
    public func stop(flushingMetrics: Bool) async {
        await poller.stop(flushingMetrics: flushingMetrics)
    }

    /// Whether the client is started (polling, unless a 401/403/404 stopped it).
    public var isRunning: Bool { poller.isRunning }

    // MARK: Reading

    /// Whether a toggle is on for the current context. Unknown toggles are off.
    ///
    /// Counts the evaluation for metrics and, when the toggle has `impressionData`, sends an impression event.
    /// - Parameter name: The toggle's name.
    /// - Returns: `true` when the toggle is on.
    public func isEnabled(_ name: String) -> Bool {
        let (enabled, context) = poller.read { model -> (Bool, UnleashContext?) in
            guard let toggle = model.toggles[name] else { return (false, nil) }
            return (toggle.enabled, toggle.impressionData ? model.context : nil)
        }
        if !disableMetrics { poller.metrics.count(name, enabled: enabled) }
        if let context {
            poller.hub.emit(
                .impression(
                    UnleashImpression(
                        kind: .isEnabled, featureName: name, enabled: enabled, variant: nil, context: context)))
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
        let (toggle, context) = poller.read { model in
            let toggle = model.toggles[name]
            return (toggle, toggle?.impressionData == true ? model.context : nil)
        }
        let variant = toggle?.variant ?? .disabled(featureEnabled: false)
        if !disableMetrics { poller.metrics.count(name, enabled: toggle?.enabled ?? false, variant: variant.name) }
        if let context {
            poller.hub.emit(
                .impression(
                    UnleashImpression(
                        kind: .getVariant, featureName: name, enabled: toggle?.enabled ?? false, variant: variant.name,
                        context: context)))
        }
        return variant
    }

    /// The toggle as last received, without counting it for metrics, or `nil` if the client has none by that name.
    /// - Parameter name: The toggle's name.
    /// - Returns: The toggle.
    public func toggle(named name: String) -> UnleashToggle? {
        poller.read { $0.toggles[name] }
    }

    /// Every toggle the client serves, in the order the server (or bootstrap) listed them.
    public var toggles: [UnleashToggle] {
        poller.read { model in model.order.compactMap { model.toggles[$0] } }
    }

    /// Whether the client has toggles from any source (fetched, persisted or bootstrap).
    public var hasToggles: Bool { poller.read { $0.hasToggles } }

    /// When toggles were last fetched successfully, or `nil`.
    public var lastFetchTime: Date? { poller.lastFetchTime }

    /// The current context.
    public var context: UnleashContext { poller.read { $0.context } }

    /// The time until the next poll: ``refreshInterval``, longer while backing off, `nil` when polling is off
    /// (interval 0) or HTTP 401/403 stopped it.
    public var currentPollInterval: Duration? { poller.currentPollInterval }

    /// The time until the next periodic metrics post: ``metricsInterval``, longer while backing off after
    /// 404/429/5xx, `nil` when periodic posts are off (disabled, interval 0) or HTTP 401/403 stopped them.
    public var currentMetricsInterval: Duration? { poller.currentMetricsInterval }

    // MARK: Context

    /// Replaces the context and, when started, fetches toggles for it at once (returning after that fetch).
    ///
    /// A context without a `sessionId` keeps the current one (as Unleash's SDKs do). A fetch already running for
    /// the old context finishes first; its answer is dropped.
    /// - Parameters:
    ///   - context: The new context.
    ///   - properties: More custom properties, merged over `context.properties`.
    public func updateContext(_ context: UnleashContext, properties: [String: String] = [:]) async {
        var merged = context
        merged.properties.merge(properties) { _, new in new }
        let running = poller.invalidate { model in
            if merged.sessionId?.isEmpty ?? true { merged.sessionId = model.context.sessionId }
            model.context = merged
        }
        if running { await fetchToggles() }
    }

    // MARK: Events

    /// Calls `handler` for every event from now on.
    /// - Parameter handler: The callback; it runs on the client's tasks and must not block.
    /// - Returns: A subscription; keep it, and cancel or drop it to stop the callbacks.
    public func onEvent(_ handler: @escaping @Sendable (UnleashClientEvent) -> Void) -> UnleashEventSubscription {
        poller.hub.subscribe(handler)
    }

    /// A stream of every event from now until the consumer stops iterating.
    public var events: AsyncStream<UnleashClientEvent> { poller.hub.stream }
}

extension UnleashClient.Model {
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
