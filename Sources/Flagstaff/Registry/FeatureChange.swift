import Synchronization

/// A change of one or more flags' overrides or remote values.
public struct FeatureChange: Sendable, Hashable {
    /// Who made the change.
    public enum Origin: Sendable, Hashable {
        /// This process, through the registry.
        case local
        /// Another process, through the shared override store.
        case external
        /// A remote source activated new values.
        case remote
        /// Overrides stopped applying because their expiry time passed (``OverrideExpiry``).
        case expiry
    }

    /// The keys whose override or remote value changed.
    public var keys: Set<String>
    /// Who made the change.
    public var origin: Origin

    /// Creates a change.
    package init(keys: Set<String>, origin: Origin) {
        self.keys = keys
        self.origin = origin
    }
}

/// Keeps a change handler registered; call ``cancel()`` (or drop the last reference) to stop it.
public final class ChangeSubscription: Sendable {
    private let cancellation: AnnotatedMutex<(@Sendable () -> Void)?>

    init(cancel: @escaping @Sendable () -> Void) {
        cancellation = AnnotatedMutex(cancel)
    }

    /// Stops delivering changes to the handler. Safe to call more than once.
    public func cancel() {
        let action = cancellation.withLock { current -> (@Sendable () -> Void)? in
            defer { current = nil }
            return current
        }
        action?()
    }

    deinit { cancel() }
}
