import Flagstaff
import Foundation

/// Something an Unleash client reports to its subscribers (``UnleashClient/onEvent(_:)``,
/// ``UnleashClient/events``).
public enum UnleashClientEvent: Sendable, Hashable {
    /// The first successful fetch completed (HTTP 200 or 304): the client now serves the server's toggles.
    /// Sent once per client.
    case ready
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

    /// Whether anyone listens (impressions are only built when someone does).
    var hasSubscribers: Bool { subscribers.withLock { !$0.handlers.isEmpty } }

    func subscribe(_ handler: @escaping @Sendable (UnleashClientEvent) -> Void) -> UnleashEventSubscription {
        let id = subscribers.withLock { state -> UInt64 in
            state.nextID += 1
            state.handlers[state.nextID] = handler
            return state.nextID
        }
        return UnleashEventSubscription { [weak self] in
            self?.subscribers.withLock { _ = $0.handlers.removeValue(forKey: id) }
        }
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
