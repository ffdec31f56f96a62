import Synchronization

/// An override store in memory: the default for registries, and the store for tests. Lost at exit.
public final class InMemoryOverrideStore: OverrideStore {
    private let overrides: AnnotatedMutex<[String: OverrideState]>
    private let generation = Atomic<Int64>(0)

    /// Creates a store, optionally with initial overrides (`.featureDefault` entries are dropped).
    /// - Parameter initial: overrides to start with.
    public init(_ initial: [String: OverrideState] = [:]) {
        overrides = AnnotatedMutex(initial.filter { $0.value != .featureDefault })
    }

    /// The current overrides.
    public func load() -> [String: OverrideState] {
        overrides.withLock { $0 }
    }

    /// Applies the changes and returns the new contents.
    public func update(_ changes: [String: OverrideState]) -> [String: OverrideState] {
        let result = overrides.withLock { current in
            for (key, state) in changes {
                current[key] = state == .featureDefault ? nil : state
            }
            return current
        }
        generation.add(1, ordering: .relaxed)
        return result
    }

    /// Changes with every update, so several registries sharing one in-memory store see each other's writes.
    public func changeSignature() -> StoreSignature? {
        StoreSignature([generation.load(ordering: .relaxed)])
    }
}
