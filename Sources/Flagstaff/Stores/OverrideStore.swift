/// Where overrides are persisted. Implementations must be safe to call from any thread.
///
/// A store holds only forced states (`.enabled`/`.disabled`); `.featureDefault` means "no entry". Stores
/// keep overrides for keys the current registry does not declare.
public protocol OverrideStore: Sendable {
    /// Reads every override.
    /// - Returns: the overrides by key (never `.featureDefault`).
    /// - Throws: an error naming the store and the reason if it cannot be read or is corrupt.
    func load() throws -> [String: OverrideState]

    /// Applies changes in one read-modify-write (atomic with respect to other writers of the same store,
    /// including other processes for file stores) and returns the full new contents.
    /// - Parameter changes: keys and new states; `.featureDefault` removes the key.
    /// - Returns: every override after the change.
    /// - Throws: an error naming the store and the reason; nothing is written on error.
    func update(_ changes: [String: OverrideState]) throws -> [String: OverrideState]

    /// A cheap value that changes whenever the store's contents may have changed (e.g. a file's inode, size
    /// and modification time), or `nil` if the store cannot change behind the registry's back.
    func changeSignature() -> StoreSignature?
}

extension OverrideStore {
    /// Stores that only change through `update` have no signature.
    public func changeSignature() -> StoreSignature? { nil }
}

/// An opaque value compared to detect changes to a store made elsewhere.
public struct StoreSignature: Sendable, Hashable {
    let parts: [Int64]

    /// Creates a signature from numbers that change with the store's contents.
    public init(_ parts: [Int64]) { self.parts = parts }
}
