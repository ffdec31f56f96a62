import Foundation

/// One change to a registry in progress, under its write lock (``AnyFeatureRegistry/mutate(_:)``): what a
/// transaction does to the store and to what the members hold goes through here, and what to tell subscribers is
/// gathered for when the lock is released.
package struct RegistryMutation {
    let registry: AnyFeatureRegistry
    /// The changes to notify once the lock is released, in order.
    private(set) var notices: [FeatureChange] = []

    init(registry: AnyFeatureRegistry) {
        self.registry = registry
    }

    /// Makes one store step (a write, an undo, a repair) and puts the contents it gives in force: the write
    /// transaction, written once. `step` gets the registry's store and the revision of the contents the members
    /// hold (``RevisionedOverrideStore``), so the store can tell what its write changed from them.
    /// - Parameters:
    ///   - members: the members of the written keys in byte order, when the caller has them (see
    ///     ``AnyFeatureRegistry/write(_:policy:members:parameters:)``).
    ///   - storeError: which of `step`'s errors are the store's (kept as ``AnyFeatureRegistry/storeError``); others
    ///     are refusals of the step's own (nothing to undo), which leave it as it was. Default: every error.
    ///   - step: the store step.
    /// - Returns: the store's receipt.
    /// - Throws: `step`'s error; nothing changes.
    package mutating func commit(
        members: WrittenMembers? = nil, storeError: (any Error) -> Bool = { _ in true },
        _ step: (_ store: any OverrideStore, _ known: UInt64?) throws -> WriteReceipt
    ) throws -> WriteReceipt {
        let known = registry.core.state.withLock { $0.storeRevision }
        let receipt: WriteReceipt
        do {
            receipt = try step(registry.store, known)
        } catch {
            if storeError(error) { registry.setStoreError(error) }
            throw error
        }
        registry.setStoreError(nil)
        note(
            registry.apply(
                receipt.snapshot, origin: .local, written: (receipt.changes, receipt.revision), members: members))
        return receipt
    }

    /// Reads the store again and puts what it holds in force (the store's error is kept, and the members fall back
    /// to their defaults, when it cannot be read).
    /// - Parameter origin: the origin subscribers are told, or `nil` to tell none (at start-up).
    mutating func reload(origin: FeatureChange.Origin?) {
        registry.core.reloads.add(1, ordering: .releasing)
        let store = registry.store
        let signature = store.changeSignature()
        do {
            // A store that tells its revision lets the next write apply only what it changed from these contents.
            let (snapshot, revision) = try store.loadRevisionedIfKept()
            registry.setStoreError(nil)
            registry.core.state.withLock { $0.storeSignature = signature }
            note(registry.apply(snapshot, origin: origin, written: revision.map { (nil, $0) }))
        } catch {
            registry.setStoreError(error)
            registry.core.state.withLock { $0.storeSignature = signature }
            note(registry.apply(StoreSnapshot(), origin: origin))
        }
    }

    /// Puts the store's contents as last read or written in force again, at the registry's time now: overrides
    /// whose expiry has come stop applying.
    mutating func reapply() {
        let contents = registry.core.state.withLock { $0.storeContents }
        note(registry.apply(contents, origin: .expiry))
    }

    /// Adds a change to notify once the lock is released.
    mutating func note(_ change: FeatureChange?) {
        if let change { notices.append(change) }
    }
}
