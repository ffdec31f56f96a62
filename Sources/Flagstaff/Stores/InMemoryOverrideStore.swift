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

    /// Applies the changes (keys set become permanent) and returns the new contents.
    public func update(_ changes: [String: OverrideValue?]) -> [String: OverrideValue] {
        update(changes, expiries: [:]).overrides
    }

    /// Applies the changes with their expiries, removes overrides that have expired, and returns the new
    /// contents.
    public func update(_ changes: [String: OverrideValue?], expiries: [String: OverrideExpiry]) -> StoreSnapshot {
        update(changes, expiries: expiries, known: nil).snapshot
    }

    /// Applies the changes as ``update(_:expiries:)`` does, telling what changed since revision `known`.
    package func update(
        _ changes: [String: OverrideValue?], expiries: [String: OverrideExpiry], known: UInt64?
    ) -> RevisionedWrite {
        update(known: known) { $0.apply(changes, expiries: expiries).values }
    }

    /// The contents with their revision.
    package func loadRevisioned() -> (snapshot: StoreSnapshot, revision: UInt64) {
        contents.withLock { ($0, revision.load(ordering: .relaxed)) }
    }

    /// Gives every key the same value as one change (keys in byte order, each once; see
    /// ``RevisionedOverrideStore/update(sortedKeys:value:known:)``).
    package func update(sortedKeys: [String], value: OverrideValue?, known: UInt64?) -> RevisionedWrite {
        update(known: known) { current in
            guard current.expiries.isEmpty else {
                return current.apply(
                    [String: OverrideValue?](giving: value, to: sortedKeys), expiries: [:]
                ).values
            }
            var changed: [StoreSnapshot.ValueChange] = []
            for key in sortedKeys {
                let old =
                    value.map { current.overrides.updateValue($0, forKey: key) }
                    ?? current.overrides.removeValue(forKey: key)
                if old != value { changed.append(StoreSnapshot.ValueChange(key: key, old: old, new: value)) }
            }
            return changed
        }
    }

    /// Changes the contents with `change` (returning what it changed), removes expired overrides, and tells what
    /// changed since revision `known`.
    private func update(known: UInt64?, _ change: (inout StoreSnapshot) -> [StoreSnapshot.ValueChange])
        -> RevisionedWrite
    {
        let now = clock.now()
        let result = contents.withLock { current in
            let base = revision.load(ordering: .relaxed)
            var changed = change(&current)
            for key in current.expiredKeys(at: now) {
                changed.append(
                    StoreSnapshot.ValueChange(
                        key: key, old: current.overrides[key], new: nil,
                        oldExpiresAt: current.expiries[key]?.expiresAt))
                current.overrides[key] = nil
                current.expiries[key] = nil
            }
            let next = revision.add(1, ordering: .relaxed).newValue
            return RevisionedWrite(snapshot: current, revision: next, changes: base == known ? changed : nil)
        }
        generation.add(1, ordering: .relaxed)
        return result
    }

    /// Changes with every update, so several registries sharing one in-memory store see each other's writes.
    public func changeSignature() -> StoreSignature? {
        StoreSignature([generation.load(ordering: .relaxed)])
    }
}
