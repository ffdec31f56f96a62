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

    /// Reads every override with the expiry of those that have one (``OverrideExpiry``). Expired overrides are
    /// included: whether one applies is the reader's question, at its own time.
    /// - Throws: as ``load()``.
    func loadSnapshot() throws -> StoreSnapshot

    /// Writes a change in one read-modify-write (atomic with respect to other writers of the same store, including
    /// other processes for file stores): each key of `change` gets its new value or loses its override, keys set
    /// get the expiry `change` lists for them (or become permanent), and overrides that have expired by the
    /// store's clock are removed. This is the store's only write: one key or 100,000, with or without expiry.
    ///
    /// A dictionary literal is a change: `try store.write(["blueText": .set(.on), "maxItems": .remove])`.
    /// - Parameter change: the keys and what to do to each.
    /// - Returns: every override after the change, with their expiries.
    /// - Throws: an error naming the store and the reason; nothing is written on error. A store that keeps no
    ///   expiry times throws when `change` gives a key one (``OverrideChange/applied(to:in:)`` does that).
    @discardableResult
    func write(_ change: OverrideChange) throws -> StoreSnapshot

    /// A cheap value that changes whenever the store's contents may have changed (e.g. a file's inode, size
    /// and modification time), or `nil` if the store cannot change behind the registry's back.
    func changeSignature() -> StoreSignature?
}

extension OverrideStore {
    /// A store without expiry times: its overrides, none expiring.
    public func loadSnapshot() throws -> StoreSnapshot { StoreSnapshot(overrides: try load()) }

    /// Stores that only change through ``write(_:)`` have no signature.
    public func changeSignature() -> StoreSignature? { nil }
}

/// A store that tells a writer what its write changed, so that the registry applies those keys instead of
/// comparing every stored key with the ones it holds (a write of 100,000 keys then costs its keys once).
package protocol RevisionedOverrideStore: OverrideStore {
    /// Writes a change as ``OverrideStore/write(_:)`` does, with the write's parameters, telling what it changed:
    /// the one write of the registry, whether it names one key or every marked member.
    /// - Parameters:
    ///   - change: the keys, in byte order, and what to do to each.
    ///   - known: the revision of the contents the caller holds (from its last write), or `nil`.
    ///   - parameters: what the journal records, the repair, the wait for the lock (a store without them ignores
    ///     them).
    /// - Returns: the new contents with their revision, and, when the write started from exactly the contents of
    ///   revision `known`, every value that differs from them, in key order (else `nil`: the caller compares).
    func write(_ change: OverrideChange, known: UInt64?, parameters: WriteParameters) throws -> WriteReceipt

    /// Reads the contents with their revision, so that the next write can tell what it changed from them.
    /// - Throws: as ``OverrideStore/loadSnapshot()``.
    func loadRevisioned() throws -> (snapshot: StoreSnapshot, revision: UInt64)
}

extension OverrideStore {
    /// Writes `change` with `parameters`: through ``RevisionedOverrideStore/write(_:known:parameters:)`` when the
    /// store is one, else ``write(_:)`` (no revision, no changes, no journal; the parameters do not apply).
    package func write(_ change: OverrideChange, known: UInt64?, parameters: WriteParameters) throws -> WriteReceipt {
        if let revisioned = self as? any RevisionedOverrideStore {
            return try revisioned.write(change, known: known, parameters: parameters)
        }
        return WriteReceipt(snapshot: try write(change), revision: nil, changes: nil)
    }

    /// Reads the contents with their revision when the store keeps one.
    package func loadRevisionedIfKept() throws -> (snapshot: StoreSnapshot, revision: UInt64?) {
        if let revisioned = self as? any RevisionedOverrideStore { return try revisioned.loadRevisioned() }
        return (try loadSnapshot(), nil)
    }
}

/// An opaque value compared to detect changes to a store made elsewhere.
public struct StoreSignature: Sendable, Hashable {
    let parts: [Int64]

    /// Creates a signature from numbers that change with the store's contents.
    public init(_ parts: [Int64]) { self.parts = parts }
}
