import Foundation
import Synchronization

/// An override store in memory: the default for registries, and the store for tests. Lost at exit.
public final class InMemoryOverrideStore: RevisionedOverrideStore {
    private let contents: AnnotatedMutex<StoreSnapshot>
    /// The revision of the contents, changed under the contents' lock.
    private let revision = Atomic<UInt64>(0)
    private let generation = Atomic<Int64>(0)
    private let clock: MonotonicWallClock

    /// Creates a store, optionally with initial overrides (`["blueText": .on, "maxItems": try OverrideValue(json:
    /// "50")]`).
    /// - Parameters:
    ///   - initial: overrides to start with.
    ///   - expiries: the expiry of initial overrides that have one.
    ///   - wallClock: the clock that decides which overrides a write removes as expired (default: the system's).
    public init(
        _ initial: [String: OverrideValue] = [:], expiries: [String: OverrideExpiry] = [:],
        wallClock: any WallClock = SystemWallClock()
    ) {
        contents = AnnotatedMutex(
            StoreSnapshot(overrides: initial, expiries: expiries.filter { initial[$0.key] != nil }))
        clock = MonotonicWallClock(wallClock)
    }

    /// The current overrides (expired ones included until the next write).
    public func load() -> [String: OverrideValue] {
        contents.withLock { $0.overrides }
    }

    /// The current overrides and their expiries.
    public func loadSnapshot() -> StoreSnapshot {
        contents.withLock { $0 }
    }

    /// Applies a change (``OverrideStore/write(_:)``), removes overrides that have expired, and returns the new
    /// contents.
    @discardableResult
    public func write(_ change: OverrideChange) -> StoreSnapshot {
        write(change, known: nil, parameters: WriteParameters()).snapshot
    }

    /// Applies a change as ``write(_:)`` does, telling what changed since revision `known` (an in-memory store keeps
    /// no journal and no lock: `parameters` do not apply).
    package func write(
        _ change: OverrideChange, known: UInt64?, parameters: WriteParameters = WriteParameters()
    ) -> WriteReceipt {
        let now = clock.now()
        let result = contents.withLock { current in
            let base = revision.load(ordering: .relaxed)
            let expired = current.apply(current.removalOfExpired(at: now))
            let changed = current.apply(change)
            let next = revision.add(1, ordering: .relaxed).newValue
            return WriteReceipt(snapshot: current, revision: next, changes: base == known ? expired + changed : nil)
        }
        generation.add(1, ordering: .relaxed)
        return result
    }

    /// The contents with their revision.
    package func loadRevisioned() -> (snapshot: StoreSnapshot, revision: UInt64) {
        contents.withLock { ($0, revision.load(ordering: .relaxed)) }
    }

    /// Changes with every write, so several registries sharing one in-memory store see each other's writes.
    public func changeSignature() -> StoreSignature? {
        StoreSignature([generation.load(ordering: .relaxed)])
    }
}
