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

    /// The keys whose override or remote value changed. A change of many keys makes this set when it is first
    /// read (by any copy of the change), not before: ``keyCount`` says how many there are without it.
    public var keys: Set<String> {
        get { changed.set }
        set { changed = ChangedKeys(newValue) }
    }
    /// How many keys changed (without making the set ``keys``).
    public var keyCount: Int { changed.count }
    /// Who made the change.
    public var origin: Origin
    private var changed: ChangedKeys

    /// Creates a change.
    package init(keys: Set<String>, origin: Origin) {
        self.changed = ChangedKeys(keys)
        self.origin = origin
    }

    /// Creates a change of keys known to be distinct, listed in any order (the set is made when first read:
    /// a registry's write of 100,000 keys does not make one for subscribers that only count them).
    package init(distinctKeys: [String], origin: Origin) {
        self.changed = ChangedKeys(distinct: distinctKeys)
        self.origin = origin
    }

    public static func == (lhs: FeatureChange, rhs: FeatureChange) -> Bool {
        lhs.origin == rhs.origin && lhs.keyCount == rhs.keyCount && lhs.keys == rhs.keys
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(origin)
        hasher.combine(keys)
    }
}

/// The keys of a change: a list of distinct keys, and the set made of them on first use.
private final class ChangedKeys: Sendable {
    let count: Int
    private let list: [String]
    private let made: AnnotatedMutex<Set<String>?>

    init(_ keys: Set<String>) {
        count = keys.count
        list = []
        made = AnnotatedMutex(keys)
    }

    init(distinct keys: [String]) {
        count = keys.count
        list = keys
        made = AnnotatedMutex(nil)
    }

    var set: Set<String> {
        made.withLock { made in
            if let made { return made }
            let keys = Set(list)
            made = keys
            return keys
        }
    }
}

/// Keeps a change handler registered; call ``cancel()`` (or drop the last reference) to stop it.
public final class ChangeSubscription: Sendable {
    private let cancellation: AnnotatedMutex<(@Sendable () -> Void)?>

    /// A subscription that runs `cancel` once, on ``cancel()`` or when released.
    package init(cancel: @escaping @Sendable () -> Void) {
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
