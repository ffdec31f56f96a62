import Synchronization

/// An override store in memory: the default for registries, and the store for tests. Lost at exit.
public final class InMemoryOverrideStore: OverrideStore {
    private let overrides: AnnotatedMutex<[String: OverrideValue]>
    private let generation = Atomic<Int64>(0)

    /// Creates a store, optionally with initial overrides (`["blueText": .on, "maxItems": try OverrideValue(json:
    /// "50")]`).
    /// - Parameter initial: overrides to start with.
    public init(_ initial: [String: OverrideValue] = [:]) {
        overrides = AnnotatedMutex(initial)
    }

    /// The current overrides.
    public func load() -> [String: OverrideValue] {
        overrides.withLock { $0 }
    }

    /// Applies the changes and returns the new contents.
    public func update(_ changes: [String: OverrideValue?]) -> [String: OverrideValue] {
        let result = overrides.withLock { current in
            for (key, value) in changes {
                current[key] = value
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
