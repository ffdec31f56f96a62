/// Where overrides are persisted. Implementations must be safe to call from any thread.
///
/// A store holds one JSON value per overridden key (`"on"`/`"off"` for flags, a setting's value for settings);
/// no entry means no override. Stores keep any value under any key: checking an entry against the flag or
/// setting declared under its key is the registry's job, and overrides for keys the current registry does not
/// declare are kept.
public protocol OverrideStore: Sendable {
    /// Reads every override.
    /// - Returns: the overrides by key.
    /// - Throws: an error naming the store and the reason if it cannot be read or is corrupt.
    func load() throws -> [String: OverrideValue]

    /// Applies changes in one read-modify-write (atomic with respect to other writers of the same store,
    /// including other processes for file stores) and returns the full new contents.
    /// - Parameter changes: keys and new values; `nil` removes the key.
    /// - Returns: every override after the change.
    /// - Throws: an error naming the store and the reason; nothing is written on error.
    func update(_ changes: [String: OverrideValue?]) throws -> [String: OverrideValue]

    /// Reads every override with the expiry of those that have one (``OverrideExpiry``). Expired overrides are
    /// included: whether one applies is the reader's question, at its own time.
    /// - Throws: as ``load()``.
    func loadSnapshot() throws -> StoreSnapshot

    /// Applies changes as ``update(_:)`` does, giving the keys set the expiry listed for them in `expiries` (a
    /// key set without one becomes permanent; a key removed loses its expiry), and removes overrides that have
    /// expired by the store's clock.
    /// - Parameters:
    ///   - changes: keys and new values; `nil` removes the key.
    ///   - expiries: the expiry of keys set by `changes` that have one.
    /// - Returns: the full new contents.
    /// - Throws: the store's error; nothing is written on error. Stores that keep no expiry times throw when
    ///   `expiries` is not empty.
    func update(_ changes: [String: OverrideValue?], expiries: [String: OverrideExpiry]) throws -> StoreSnapshot

    /// A cheap value that changes whenever the store's contents may have changed (e.g. a file's inode, size
    /// and modification time), or `nil` if the store cannot change behind the registry's back.
    func changeSignature() -> StoreSignature?
}

extension OverrideStore {
    /// A store without expiry times: its overrides, none expiring.
    public func loadSnapshot() throws -> StoreSnapshot { StoreSnapshot(overrides: try load()) }

    /// A store without expiry times applies `changes` with ``update(_:)`` and refuses expiries.
    public func update(_ changes: [String: OverrideValue?], expiries: [String: OverrideExpiry]) throws
        -> StoreSnapshot
    {
        guard expiries.isEmpty else {
            throw OverrideStoreError.unwritable(
                path: String(describing: type(of: self)),
                reason: "this store does not keep expiry times; nothing was written")
        }
        return StoreSnapshot(overrides: try update(changes))
    }

    /// Stores that only change through `update` have no signature.
    public func changeSignature() -> StoreSignature? { nil }

    /// Applies flag changes (``OverrideState``; `.featureDefault` removes the key) in one read-modify-write.
    /// - Parameter changes: keys and new flag states.
    /// - Returns: every override after the change.
    /// - Throws: the store's error; nothing is written on error.
    @discardableResult
    public func update(_ changes: [String: OverrideState]) throws -> [String: OverrideValue] {
        try update(changes.mapValues { OverrideValue($0) })
    }
}

/// A store that tells a writer what its write changed, so that the registry applies those keys instead of
/// comparing every stored key with the ones it holds (a write of 100,000 keys then costs its keys once).
package protocol RevisionedOverrideStore: OverrideStore {
    /// Writes a change in one read-modify-write, as ``OverrideStore/update(_:expiries:)`` does: the one write of
    /// the registry, whether it names one key or every marked member.
    /// - Parameters:
    ///   - change: the keys, in byte order, and what to do to each.
    ///   - known: the revision of the contents the caller holds (from its last write), or `nil`.
    /// - Returns: the new contents with their revision, and, when the write started from exactly the contents of
    ///   revision `known`, every value that differs from them, in key order (else `nil`: the caller compares).
    func write(_ change: OverrideChange, known: UInt64?) throws -> RevisionedWrite

    /// Reads the contents with their revision, so that the next write can tell what it changed from them.
    /// - Throws: as ``OverrideStore/loadSnapshot()``.
    func loadRevisioned() throws -> (snapshot: StoreSnapshot, revision: UInt64)
}

/// What a ``RevisionedOverrideStore`` write gives back.
package struct RevisionedWrite: Sendable {
    /// The contents after the write.
    package var snapshot: StoreSnapshot
    /// Their revision: a number this store object gives to no other contents.
    package var revision: UInt64
    /// Every key whose value differs from the contents of the revision the caller knew, or `nil` when the write
    /// did not start from them.
    package var changes: [StoreSnapshot.ValueChange]?
}

/// An opaque value compared to detect changes to a store made elsewhere.
public struct StoreSignature: Sendable, Hashable {
    let parts: [Int64]

    /// Creates a signature from numbers that change with the store's contents.
    public init(_ parts: [Int64]) { self.parts = parts }
}
