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

    let startedAt: Date
    /// Polling, events, metrics and the registry link, shared with ``UnleashClient``.
    let poller: UnleashPoller<Model, [String: Data]>

    /// What the client keeps beside the engine: each feature's definition as canonical JSON, to tell which
    /// features an answer changed.
    struct Model: Sendable {
        var definitions: [String: Data] = [:]
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
    ///   - customHeaders: Extra header fields; `Authorization`, `Content-Type`, `If-None-Match`, `unleash-*` and
    ///     malformed fields are ignored.
    ///   - customHeadersProvider: Called before every request for more header fields.
    ///   - bootstrap: A `/api/client/features` body to evaluate until the first fetch when nothing was persisted.
    ///   - options: Timeouts, limits, backoff, persistence and the clock.
    /// - Throws: ``UnleashClientError/invalidBootstrap(_:)`` when `bootstrap` is not a valid state, naming the JSON path.
    public init(
        url: URL, apiKey: String, appName: String,
        instanceID: String = "flagstaff-\(ProcessInfo.processInfo.hostName)", environment: String? = nil,
        refreshInterval: Duration = .seconds(15), metricsInterval: Duration = .seconds(60),
        disableMetrics: Bool = false, context: UnleashContext = UnleashContext(),
        customHeaders: [String: String] = [:],
        customHeadersProvider: (@Sendable () -> [String: String])? = nil,
        bootstrap: Data? = nil, options: UnleashClientOptions = UnleashClientOptions()
    ) throws(UnleashClientError) {
        self.url = url
        let settings = UnleashPollerSettings(
            url: url, key: apiKey, appName: appName, environment: environment, instanceID: instanceID,
            customHeaders: customHeaders, customHeadersProvider: customHeadersProvider,
            refreshInterval: refreshInterval,
            metricsInterval: metricsInterval, disableMetrics: disableMetrics, options: options)
        (self.appName, self.instanceID, self.environment, self.options) = (appName, instanceID, environment, options)
        (self.refreshInterval, self.metricsInterval, self.disableMetrics) =
            (settings.refreshInterval, settings.metricsInterval, disableMetrics)
        var context = context
        if context.appName == nil { context.appName = appName }
        if context.environment == nil { context.environment = environment }
        self.defaultContext = context
        let engine = UnleashEngine()
        self.engine = engine
        self.startedAt = options.now()
        let snapshots = options.storageDirectory.map {
            UnleashSnapshotStore(directory: $0, fileName: "unleash-client-features.json")
        }

        var model = Model()
        var failures: [UnleashClientFailure] = []
        var loaded = false
        if let snapshots {
            do throws(UnleashClientError) {
                if let data = try snapshots.load() {
                    model.definitions = try Self.take(data, into: engine, source: snapshots.fileURL.path)
                    loaded = true
                }
            } catch {
                failures.append(UnleashClientFailure(operation: .persist, error: error.asPersistence))
            }
        }
        if !loaded, let bootstrap {
            do {
                model.definitions = try Self.take(bootstrap, into: engine, source: "bootstrap")
            } catch {
                if case .invalidResponse(let message) = error { throw .invalidBootstrap(message) }
                throw error
            }
        }
        let endpoint = url.appendingPathComponent("client").appendingPathComponent("features")
        poller = UnleashPoller(
            settings: settings, feed: Self.feed(endpoint: endpoint, engine: engine), model: model,
            snapshots: snapshots, pendingFailures: failures, label: "server")
    }

    /// Registers the application (unless metrics are disabled), fetches the state once, then polls every
    /// ``refreshInterval`` and posts metrics every ``metricsInterval``. Returns after the first fetch.
    public func start() async {
        if disableMetrics {
            await poller.start()
        } else {
            await poller.start { [self] in await register() }
        }
    }

    /// Stops polling and periodic metrics, and sends the counts not sent yet once, in the background (within
    /// ``UnleashClientOptions/timeout``; a failure is an `error` event). Returns at once; evaluations go on with
    /// the last state. To wait for that last post, use ``stop(flushingMetrics:)``.
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
    /// are filled from the client). Counts the evaluation for metrics.
    /// - Parameters:
    ///   - name: The flag's name.
    ///   - context: The context, or `nil` for ``defaultContext``.
    /// - Returns: `true` when the flag is on; unknown flags are off.
    public func isEnabled(_ name: String, context: UnleashContext? = nil) -> Bool {
        let enabled = engine.isEnabled(name, context: complete(context))
        if !disableMetrics { poller.metrics.count(name, enabled: enabled) }
        return enabled
    }

    /// The variant of a flag for a context. Counts the lookup for metrics.
    /// - Parameters:
    ///   - name: The flag's name.
    ///   - context: The context, or `nil` for ``defaultContext``.
    /// - Returns: The variant; `disabled` for unknown or disabled flags.
    public func variant(_ name: String, context: UnleashContext? = nil) -> UnleashVariant {
        let variant = engine.variant(name, context: complete(context))
        if !disableMetrics { poller.metrics.count(name, enabled: variant.featureEnabled, variant: variant.name) }
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

    /// The time until the next poll, longer while backing off; `nil` after 401/403/404 stopped polling.
    public var currentPollInterval: Duration? { poller.currentPollInterval }

    // MARK: Events

    /// Calls `handler` for every event from now on (no impressions in this mode).
    /// - Parameter handler: The callback; it must not block.
    /// - Returns: A subscription; keep it, and cancel or drop it to stop the callbacks.
    public func onEvent(_ handler: @escaping @Sendable (UnleashClientEvent) -> Void) -> UnleashEventSubscription {
        poller.hub.subscribe(handler)
    }

    /// A stream of every event from now until the consumer stops iterating.
    public var events: AsyncStream<UnleashClientEvent> { poller.hub.stream }
}
