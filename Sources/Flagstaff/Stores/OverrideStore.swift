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

    /// A cheap value that changes whenever the store's contents may have changed (e.g. a file's inode, size
    /// and modification time), or `nil` if the store cannot change behind the registry's back.
    func changeSignature() -> StoreSignature?
}

extension OverrideStore {
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

/// An opaque value compared to detect changes to a store made elsewhere.
public struct StoreSignature: Sendable, Hashable {
    let parts: [Int64]

    /// Creates a signature from numbers that change with the store's contents.
    public init(_ parts: [Int64]) { self.parts = parts }
}
