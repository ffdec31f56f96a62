import Flagstaff
import Foundation
import Synchronization

/// Something an Unleash client reports to its subscribers (``UnleashClient/onEvent(_:)``,
/// ``UnleashClient/events``).
public enum UnleashClientEvent: Sendable, Hashable {
    /// The client has toggles to serve. Sent once per client.
    ///
    /// ``UnleashClient``: after the first successful fetch (HTTP 200 or 304). ``UnleashServerClient`` (as Unleash's
    /// Node SDK): at ``UnleashServerClient/start()`` when a persisted state or a bootstrap was loaded, else after
    /// the first successful fetch; ``synchronized`` tells when the server has answered.
    case ready
    /// ``UnleashServerClient`` only: the first successful fetch completed (HTTP 200 or 304), so the state is the
    /// server's, not a backup or bootstrap. Sent once per client, after ``ready``.
    case synchronized
    /// Toggles changed: the names of the toggles added, removed or changed, sorted. Sent for fetched toggles
    /// that differ from what the client served before (bootstrap, persisted or previously fetched).
    case update(changed: [String])
    /// A fetch, metrics post, registration or persistence failed. The toggles served are unchanged.
    case error(UnleashClientFailure)
    /// The server accepted a metrics bucket.
    case sent(UnleashMetricsBucket)
    /// A toggle with `impressionData` was evaluated.
    case impression(UnleashImpression)
}

extension UnleashClientEvent {
    /// The kind of an event, without its data: what ``UnleashClient/subscribe(_:callback:)`` takes, spelled
    /// as unleash-proxy-client-swift's `UnleashEvent`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// ``UnleashClientEvent/ready``.
        case ready
        /// ``UnleashClientEvent/synchronized``.
        case synchronized
        /// ``UnleashClientEvent/update(changed:)``.
        case update
        /// ``UnleashClientEvent/error(_:)``.
        case error
        /// ``UnleashClientEvent/sent(_:)``.
        case sent
        /// ``UnleashClientEvent/impression(_:)``.
        case impression
    }

    /// The event's kind.
    public var kind: Kind {
        switch self {
        case .ready: .ready
        case .synchronized: .synchronized
        case .update: .update
        case .error: .error
        case .sent: .sent
        case .impression: .impression
        }
    }
}

/// One evaluation of a toggle whose `impressionData` is on.
public struct UnleashImpression: Sendable, Hashable {
    /// Which call evaluated the toggle.
    public enum Kind: String, Sendable, Hashable {
        /// ``UnleashClient/isEnabled(_:)``.
        case isEnabled
        /// ``UnleashClient/variant(_:)``.
        case getVariant
    }

    /// Which call evaluated the toggle.
    public var kind: Kind
    /// The toggle's name.
    public var featureName: String
    /// Whether the toggle was on.
    public var enabled: Bool
    /// The variant's name, for ``Kind/getVariant``.
    public var variant: String?
    /// The context the toggle was evaluated for.
    public var context: UnleashContext

    /// Creates an impression.
    /// - Parameters:
    ///   - kind: Which call evaluated the toggle.
    ///   - featureName: The toggle's name.
    ///   - enabled: Whether it was on.
    ///   - variant: The variant's name, if a variant was asked for.
    ///   - context: The context.
    public init(kind: Kind, featureName: String, enabled: Bool, variant: String?, context: UnleashContext) {
        self.kind = kind
        self.featureName = featureName
        self.enabled = enabled
        self.variant = variant
        self.context = context
    }
}

/// A subscription to client events; cancel it (or drop it) to stop the callbacks.
public final class UnleashEventSubscription: Sendable {
    private let onCancel: AnnotatedMutex<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = AnnotatedMutex(onCancel)
    }

    deinit { cancel() }

    /// Stops the callbacks. Safe to call more than once.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }
}

/// Delivers events to closures and streams.
final class UnleashEventHub: Sendable {
    private struct Subscribers {
        var nextID: UInt64 = 0
        var handlers: [UInt64: @Sendable (UnleashClientEvent) -> Void] = [:]
    }

    private let subscribers = AnnotatedMutex(Subscribers())
    /// Subscriptions the hub keeps alive itself, by kind (the `subscribe(_:callback:)` spelling of
    /// unleash-proxy-client-swift returns none); dropped by ``release(_:)``.
    private let kept = AnnotatedMutex([UnleashClientEvent.Kind: [UnleashEventSubscription]]())
    /// How many handlers there are, readable without the lock (evaluations check it on every call).
    private let count = Atomic<Int>(0)

    /// Whether anyone listens (impressions are only built when someone does).
    var hasSubscribers: Bool { subscribers.withLock { !$0.handlers.isEmpty } }

    /// Whether anyone listens, from one atomic load: may lag a subscription made on another thread at that moment.
    var hasSubscribersQuickly: Bool { count.load(ordering: .relaxed) > 0 }

    func subscribe(_ handler: @escaping @Sendable (UnleashClientEvent) -> Void) -> UnleashEventSubscription {
        let id = subscribers.withLock { state -> UInt64 in
            state.nextID += 1
            state.handlers[state.nextID] = handler
            count.store(state.handlers.count, ordering: .relaxed)
            return state.nextID
        }
        return UnleashEventSubscription { [weak self] in
            guard let self else { return }
            subscribers.withLock { state in
                state.handlers.removeValue(forKey: id)
                count.store(state.handlers.count, ordering: .relaxed)
            }
        }
    }

    /// Calls `handler` for every event of `kind` until ``release(_:)`` is called for that kind.
    func keep(_ kind: UnleashClientEvent.Kind, _ handler: @escaping @Sendable (UnleashClientEvent) -> Void) {
        let subscription = subscribe { event in if event.kind == kind { handler(event) } }
        kept.withLock { $0[kind, default: []].append(subscription) }
    }

    /// Cancels the subscriptions ``keep(_:_:)`` made for `kind`.
    func release(_ kind: UnleashClientEvent.Kind) {
        let dropped = kept.withLock { $0.removeValue(forKey: kind) } ?? []
        dropped.forEach { $0.cancel() }
    }

    var stream: AsyncStream<UnleashClientEvent> {
        AsyncStream { continuation in
            let subscription = subscribe { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }

    func emit(_ event: UnleashClientEvent) {
        let handlers = subscribers.withLock { state in state.handlers.sorted { $0.key < $1.key }.map(\.value) }
        for handler in handlers { handler(event) }
    }
}
