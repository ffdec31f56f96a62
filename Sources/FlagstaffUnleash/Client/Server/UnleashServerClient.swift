import Flagstaff
import Foundation

/// A server-side Unleash client: it polls the client API (`/api/client/delta` where the server offers it, else
/// `/api/client/features`) or, in streaming mode, follows `/api/client/streaming`; registers the application, sends metrics, and evaluates flags locally with
/// ``UnleashEngine`` for any context, like Unleash's server SDKs.
///
/// ```swift
/// let unleash = try UnleashServerClient(url: URL(string: "https://unleash.example.com/api")!,
///                                       apiKey: "*:production.abc", appName: "checkout-service",
///                                       options: UnleashClientOptions(storageDirectory: cacheURL))
/// await unleash.start()
/// if unleash.isEnabled("checkout.new-flow", context: UnleashContext(userId: user.id)) { … }
/// ```
///
/// With `experimentalMode: .streaming` (``UnleashExperimentalMode/streaming``), the client keeps one event-stream
/// connection instead of polling and applies each change as it arrives (see the mode for reconnection and the
/// fallback to polling).
///
/// Polling follows the same rules as ``UnleashClient``: the ETag is sent as `If-None-Match` and a 304 keeps the
/// state; 401/403 stop polling; 404/429/5xx back off; timeouts, refused connections and bodies the engine rejects
/// keep the last-known-good state (fetched, else the bootstrap or the persisted one). After each successful answer
/// that changed something the whole state is persisted (atomically) when a storage directory is given, and loaded
/// at the next launch. Events follow Unleash's Node SDK: `ready` when a persisted state or bootstrap is loaded (at
/// ``start()``) or after the first fetch, `synchronized` after the first fetch, `impression` for evaluations of
/// features with `impressionData`.
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
    /// The normal time between polls; zero (or less) means no polling after the first fetch.
    public let refreshInterval: Duration
    /// The time between metrics posts; zero (or less) means no periodic posts.
    public let metricsInterval: Duration
    /// The connection id sent as `unleash-connection-id` and in registration and metrics: a new UUID per client
    /// unless ``UnleashClientOptions/connectionID`` pins one.
    public var connectionID: String { poller.settings.connectionID }
    /// Whether metrics are neither counted nor sent.
    public let disableMetrics: Bool
    /// The context used when none is given (and by registry flags).
    public let defaultContext: UnleashContext
    /// The local evaluation engine holding the current state.
    public let engine: UnleashEngine
    /// Timeouts, limits, backoff, persistence and the clock.
    public let options: UnleashClientOptions

    let startedAt: Date
    /// Polling, events, metrics and the registry link, shared with ``UnleashClient``.
    let poller: UnleashPoller<Model, UnleashStateDocument>
    /// Whether polls go to the delta API.
    let deltaAPI: UnleashDeltaSwitch
    /// The event stream, in streaming mode.
    let stream: UnleashStream?
    /// How the client was asked to learn of changes.
    public let experimentalMode: UnleashExperimentalMode

    /// What the client keeps beside the engine: each feature's and segment's JSON (keys sorted), to tell which
    /// features an answer changed and to persist the whole state.
    struct Model: Sendable {
        var order: [String] = []
        var features: [String: Data] = [:]
        var segments: [Int: Data] = [:]
    }

    /// Creates a client; nothing is sent until ``start()``.
    /// - Parameters:
    ///   - url: The API base (ending in `/api`).
    ///   - apiKey: A client (backend) API token, sent as `Authorization`.
    ///   - appName: The application name.
    ///   - instanceID: This instance's id (default: `flagstaff-` and the host name).
    ///   - environment: The environment, if any.
    ///   - refreshInterval: The time between polls (default 15 s); `.zero` fetches only at ``start()`` and on request.
    ///   - metricsInterval: The time between metrics posts (default 60 s); `.zero` turns periodic posts off.
    ///   - disableMetrics: `true` to neither count nor send metrics (and not register).
    ///   - context: The default context for evaluations without one.
    ///   - customHeaders: Extra header fields; `Authorization`, `Content-Type`, `If-None-Match`, `unleash-*` and
    ///     malformed fields are ignored.
    ///   - customHeadersProvider: Called before every request for more header fields.
    ///   - bootstrap: A `/api/client/features` body to evaluate until the first fetch; it wins over a persisted state
    ///     unless ``UnleashClientOptions/bootstrapOverride`` is `false` (a bootstrap without features never wins).
    ///   - deltaAPI: Whether to poll `/api/client/delta` (default `true`); the client falls back to
    ///     `/api/client/features` for good when the server answers 404 there.
    ///   - experimentalMode: ``UnleashExperimentalMode/polling`` (the default) or
    ///     ``UnleashExperimentalMode/streaming`` to follow `{url}/client/streaming` instead of polling.
    ///   - options: Timeouts, limits, backoff, persistence and the clock.
    /// - Throws: ``UnleashClientError/invalidBootstrap(_:)`` when `bootstrap` is not a valid state, naming the JSON path.
    public init(
        url: URL, apiKey: String, appName: String,
        instanceID: String = "flagstaff-\(ProcessInfo.processInfo.hostName)", environment: String? = nil,
        refreshInterval: Duration = .seconds(15), metricsInterval: Duration = .seconds(60),
        disableMetrics: Bool = false, context: UnleashContext = UnleashContext(),
        customHeaders: [String: String] = [:],
        customHeadersProvider: (@Sendable () -> [String: String])? = nil,
        bootstrap: Data? = nil, deltaAPI: Bool = true, experimentalMode: UnleashExperimentalMode = .polling,
        options: UnleashClientOptions = UnleashClientOptions()
    ) throws(UnleashClientError) {
        self.url = url
        self.experimentalMode = experimentalMode
        stream = experimentalMode.isStreaming ? UnleashStream(url: url, on: true, options: options) : nil
        let settings = UnleashPollerSettings(
            url: url, key: apiKey, appName: appName, environment: environment, instanceID: instanceID,
            customHeaders: customHeaders, customHeadersProvider: customHeadersProvider,
            refreshInterval: refreshInterval,
            metricsInterval: metricsInterval, disableMetrics: disableMetrics, options: options)
        (self.appName, self.instanceID, self.environment, self.options) = (appName, instanceID, environment, options)
        (self.refreshInterval, self.metricsInterval, self.disableMetrics) =
            (refreshInterval, metricsInterval, disableMetrics)
        var context = context
        if context.appName == nil { context.appName = appName }
        if context.environment == nil { context.environment = environment }
        self.defaultContext = context
        let engine = UnleashEngine()
        self.engine = engine
        self.startedAt = options.now()
        let snapshots = options.storageDirectory.map {
            UnleashSnapshotStore(directory: $0, kind: "client", appName: appName, url: url)
        }

        var model = Model()
        var failures: [UnleashClientFailure] = []
        func loadBootstrap() throws(UnleashClientError) -> Bool {
            guard let bootstrap else { return false }
            var candidate = Model()
            do {
                _ = candidate.install(try Self.take(bootstrap, into: engine, source: "bootstrap"))
            } catch {
                if error.isInvalidResponse { throw .invalidBootstrap(error.message) }
                throw error
            }
            guard !candidate.features.isEmpty else { return false }
            model = candidate
            return true
        }
        func loadBackup() -> Bool {
            guard let snapshots else { return false }
            do throws(UnleashClientError) {
                guard let data = try snapshots.load() else { return false }
                _ = model.install(try Self.take(data, into: engine, source: snapshots.fileURL.path))
                return true
            } catch {
                failures.append(UnleashClientFailure(operation: .persist, error: error.asPersistence))
                return false
            }
        }
        // As Unleash's Node SDK: the bootstrap wins unless told otherwise; an empty one never does.
        let loaded: Bool
        if options.bootstrapOverride {
            let bootstrapped = try loadBootstrap()
            loaded = bootstrapped || loadBackup()
        } else if loadBackup() {
            loaded = true
        } else {
            loaded = try loadBootstrap()
        }
        let delta = UnleashDeltaSwitch(deltaAPI)
        self.deltaAPI = delta
        let client = url.appendingPathComponent("client")
        poller = UnleashPoller(
            settings: settings,
            feed: Self.feed(
                features: client.appendingPathComponent("features"), delta: client.appendingPathComponent("delta"),
                deltaAPI: delta, engine: engine),
            model: model, snapshots: snapshots, pendingFailures: failures, label: "server", readyOnLoad: loaded)
    }

    /// Registers the application (unless metrics are disabled), fetches the state once, then polls every
    /// ``refreshInterval`` and posts metrics every ``metricsInterval``. Returns after the first fetch.
    ///
    /// In streaming mode it opens the stream instead of fetching and polling, and returns once the stream has
    /// brought the state or its first connection failed (it goes on reconnecting in the background).
    public func start() async {
        var first: (@Sendable () async -> Void)?
        if !disableMetrics { first = { [self] in await register() } }
        var connect: (@Sendable () async -> Void)?
        if let stream, stream.isOn {
            connect = { [poller] in await stream.start(poller) }
        }
        await poller.start(first: first, connect: connect)
    }

    /// Whether the client follows the event stream now: `true` in streaming mode until the server answers 404 or
    /// 405 there or asks for polling (then the client polls for good).
    public var isStreaming: Bool { stream?.isOn ?? false }

    /// Stops polling (or closes the stream) and periodic metrics, and sends the counts not sent yet once, in the
    /// background (within ``UnleashClientOptions/timeout``; a failure is an `error` event). Returns at once;
    /// evaluations go on with the last state. To wait for that last post, use ``stop(flushingMetrics:)``.
    public func stop() {
        poller.stop()
    }

    /// Stops polling and periodic metrics and, with `flushingMetrics`, sends the counts not sent yet and returns
    /// when the server answered, at the latest after ``UnleashClientOptions/timeout``. Never throws: a failed post
    /// is an `error` event and its counts stay for a later ``flushMetrics()``.
    /// - Parameter flushingMetrics: Whether to send the pending counts.
    public func stop(flushingMetrics: Bool) async {
        await poller.stop(flushingMetrics: flushingMetrics)
    }

    // MARK: Evaluation

    /// Whether a flag is on for a context (the default context when `nil`; missing `appName` and `environment`
    /// are filled from the client). Counts the evaluation for metrics and, for a feature with `impressionData`,
    /// sends an impression event (on the calling thread) when anyone subscribes.
    /// - Parameters:
    ///   - name: The flag's name.
    ///   - context: The context, or `nil` for ``defaultContext``.
    /// - Returns: `true` when the flag is on; unknown flags are off.
    public func isEnabled(_ name: String, context: UnleashContext? = nil) -> Bool {
        let context = complete(context)
        let enabled = engine.isEnabled(name, context: context)
        if !disableMetrics { poller.metrics.count(name, enabled: enabled) }
        if poller.hub.hasSubscribersQuickly, engine.wantsImpressions(name) {
            poller.hub.emit(
                .impression(
                    UnleashImpression(
                        kind: .isEnabled, featureName: name, enabled: enabled, variant: nil, context: context)))
        }
        return enabled
    }

    /// The variant of a flag for a context. Counts the lookup for metrics and, for a feature with
    /// `impressionData`, sends an impression event (on the calling thread) when anyone subscribes.
    /// - Parameters:
    ///   - name: The flag's name.
    ///   - context: The context, or `nil` for ``defaultContext``.
    /// - Returns: The variant; `disabled` for unknown or disabled flags.
    public func variant(_ name: String, context: UnleashContext? = nil) -> UnleashVariant {
        let context = complete(context)
        let variant = engine.variant(name, context: context)
        if !disableMetrics { poller.metrics.count(name, enabled: variant.featureEnabled, variant: variant.name) }
        if poller.hub.hasSubscribersQuickly, engine.wantsImpressions(name) {
            poller.hub.emit(
                .impression(
                    UnleashImpression(
                        kind: .getVariant, featureName: name, enabled: variant.featureEnabled, variant: variant.name,
                        context: context)))
        }
        return variant
    }

    func complete(_ context: UnleashContext?) -> UnleashContext {
        guard var context else { return defaultContext }
        if context.appName == nil { context.appName = appName }
        if context.environment == nil { context.environment = environment }
        return context
    }

    /// When the state was last fetched successfully, or `nil`.
    public var lastFetchTime: Date? { poller.lastFetchTime }

    /// The time until the next poll, longer while backing off; `nil` when polling is off (interval 0, or streaming)
    /// or after 401/403 stopped it.
    public var currentPollInterval: Duration? { isStreaming ? nil : poller.currentPollInterval }

    /// The time until the next periodic metrics post, longer while backing off after 404/429/5xx; `nil` when
    /// periodic posts are off (disabled, interval 0) or 401/403 stopped them.
    public var currentMetricsInterval: Duration? { poller.currentMetricsInterval }

    // MARK: Events

    /// Calls `handler` for every event from now on.
    /// - Parameter handler: The callback; it must not block.
    /// - Returns: A subscription; keep it, and cancel or drop it to stop the callbacks.
    public func onEvent(_ handler: @escaping @Sendable (UnleashClientEvent) -> Void) -> UnleashEventSubscription {
        poller.hub.subscribe(handler)
    }

    /// A stream of every event from now until the consumer stops iterating.
    public var events: AsyncStream<UnleashClientEvent> { poller.hub.stream }
}
