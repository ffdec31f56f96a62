import Flagstaff
import FlagstaffRemote
import Foundation

/// The core both Unleash clients share, one per client: the model readers see, polling with its ETag, backoff and
/// halting rules, persistence of answers, events, metrics (periodic, on demand and at `stop()`), the remote
/// source status and the registry link. The client says what differs in an ``UnleashFeed``.
///
/// Every wait (poll interval, backoff, metrics interval, request deadline) is a sleep on the injected clock
/// (``UnleashClientOptions/clock``), so tests drive them with a manual clock. Everything the poller starts runs
/// on its own ``UnleashExecutor``. The model is published through a ``PublishedReference``, so reads take no lock;
/// the other state is under a lock held only to copy or swap values. Handlers, I/O and the feed's `decode` and
/// `snapshot` run outside locks.
final class UnleashPoller<Model: Sendable, Answer: Sendable>: Sendable {
    /// What changes with fetches and lifecycle calls, under ``state``'s lock. The model is apart, in ``models``.
    struct State: Sendable {
        var eTag: String?
        /// Bumped by ``invalidate(_:)``: an answer to a request made before is dropped.
        var generation = 0
        var fetch = UnleashFetchStatus()
        var metrics = UnleashMetricsStatus()
        var running = false
        /// Whether `ready` has been sent (server client: at `start()` when a backup or bootstrap was loaded).
        var readySent = false
        /// Problems found before anyone could subscribe (an unreadable snapshot), sent at `start()`.
        var pendingFailures: [UnleashClientFailure]
    }

    /// An immutable copy of the model: what readers see.
    final class Snapshot: Sendable {
        let model: Model
        init(_ model: Model) { self.model = model }
    }

    let settings: UnleashPollerSettings
    let feed: UnleashFeed<Model, Answer>
    let hub = UnleashEventHub()
    let metrics: UnleashMetricsCounter
    let executor: UnleashExecutor
    /// The client's HTTP session: polls, metrics posts and registration reuse its connection. Invalidated by
    /// `stop()` (after the last metrics post) and when the client is released.
    let transport: RemoteHTTPTransport
    let snapshots: UnleashSnapshotStore?
    /// The model, read without a lock. Changed only while ``state``'s lock is held (lock order: `state`, then
    /// the publisher's writer lock), so a model change and the generation bump that goes with it are one step.
    let models: PublishedReference<Snapshot>
    /// Advanced after every new model: the generation of the settings bound to the client's payloads.
    let modelGeneration = SettingSourceGeneration()
    let state: AnnotatedMutex<State>
    let gate = AsyncSerialGate()
    let tasks = UnleashTaskSet()
    /// Subscriptions that keep registry links alive as long as the client.
    private let links = AnnotatedMutex([UnleashEventSubscription]())

    /// Whether `ready` is sent at `start()` because a backup or bootstrap was loaded, and a separate
    /// `synchronized` after the first successful fetch (the server client, as Unleash's Node SDK).
    let readyOnLoad: Bool

    init(
        settings: UnleashPollerSettings, feed: UnleashFeed<Model, Answer>, model: Model,
        snapshots: UnleashSnapshotStore?, pendingFailures: [UnleashClientFailure], label: String,
        readyOnLoad: Bool = false
    ) {
        self.readyOnLoad = readyOnLoad
        self.settings = settings
        self.feed = feed
        self.snapshots = snapshots
        let options = settings.options
        executor = UnleashExecutor(label: "flagstaff.unleash.\(label)")
        transport = RemoteHTTPTransport(
            label: "flagstaff.unleash.\(label)",
            maximumResponseBytes: options.maximumResponseBytes)
        metrics = UnleashMetricsCounter(now: options.now)
        models = PublishedReference(Snapshot(model))
        state = AnnotatedMutex(State(pendingFailures: pendingFailures))
    }

    deinit {
        tasks.cancelAll()
    }

    var options: UnleashClientOptions { settings.options }

    // MARK: State

    /// Reads the model, without a lock; `body` must be short and must not change the model.
    @inline(__always)
    func read<T>(_ body: (Model) -> T) -> T {
        models.read { body($0.model) }
    }

    /// Changes the model so that answers to requests made before are dropped and the ETag is forgotten.
    /// - Returns: Whether the client is started.
    func invalidate(_ change: (inout Model) -> Void) -> Bool {
        state.withLock { state in
            changeModel { change(&$0) }
            state.generation += 1
            state.eTag = nil
            return state.running
        }
    }

    /// Publishes a changed model; call with ``state``'s lock held.
    /// - Returns: What `change` returns.
    func changeModel<T: Sendable>(_ change: (inout Model) -> T) -> T {
        let result = models.update { current in
            var model = current.model
            let result = change(&model)
            return (Snapshot(model), result)
        }
        modelGeneration.advance()
        return result
    }

    var isRunning: Bool { state.withLock { $0.running } }

    var lastFetchTime: Date? { state.withLock { $0.fetch.lastFetch } }

    /// The wait before the next poll, `nil` when polling is off (interval 0) or after 401/403.
    var currentPollInterval: Duration? {
        guard let base = settings.refreshInterval else { return nil }
        return state.withLock { $0.fetch.halted == nil ? $0.fetch.delay(base: base) : nil }
    }

    /// The wait before the next periodic metrics post, `nil` when they are off (disabled, interval 0) or after
    /// 401/403.
    var currentMetricsInterval: Duration? {
        guard !settings.disableMetrics, let base = settings.metricsInterval else { return nil }
        return state.withLock { $0.metrics.delay(base: base) }
    }

    /// The status the registry's tools show.
    var status: RemoteSourceStatus {
        let now = options.now()
        let base = settings.refreshInterval ?? .zero
        return state.withLock { $0.fetch.remoteStatus(base: base, now: now) }
    }

    // MARK: Registry

    /// Links a registry to `source` (the client owning this poller); the link lives as long as the poller.
    func attach(source: any UnleashToggleSource, to registry: AnyFeatureRegistry, group: String) {
        let link = UnleashRegistryLink.install(source: source, hub: hub, registry: registry, group: group)
        links.withLock { $0.append(link) }
    }
}
