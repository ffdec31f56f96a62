import Flagstaff
import Synchronization

/// The snapshot to serve now: re-reads the store when its change signature differs from the one last seen,
/// rebuilds the snapshot after any change of the registry (the store, the console, a remote activation), and
/// keeps serving the last good snapshot while the store is corrupt or unreadable.
///
/// A write by another process (`flagstaff set`, another console) is noticed at once: a file store is watched
/// (``FolderWatch``: inotify on Linux, a dispatch source on Darwin) and each write re-reads it, so the registry's
/// subscribers (event streams) hear of it without waiting for a request or the registry's poll. When the watch
/// cannot be set up (the store's folder does not exist yet, no inotify instances left), the signature check of
/// each request and the registry's own poll remain.
///
/// The server never writes the store. Thread-safe; ``current()`` costs a `stat` of the store file and a lock
/// when nothing changed.
package final class LiveSnapshot: Sendable {
    private struct State {
        var snapshot: ServedSnapshot
        var builtAtChange: UInt64
        var signature: StoreSignature?
        var storeProblem: String?
    }

    /// The registry served.
    package let registry: AnyFeatureRegistry
    private let state: AnnotatedMutex<State>
    private let onStoreProblem: @Sendable (String?) -> Void
    private let watch = AnnotatedMutex<FolderWatch?>(nil)

    /// Starts serving a registry.
    /// - Parameters:
    ///   - registry: the registry (its store is only read).
    ///   - onStoreProblem: called with the store's error when the store becomes unreadable or corrupt (the last
    ///     good values stay served), and with `nil` when it is readable again.
    package init(registry: AnyFeatureRegistry, onStoreProblem: @escaping @Sendable (String?) -> Void = { _ in }) {
        self.registry = registry
        self.onStoreProblem = onStoreProblem
        let problem = registry.storeError.map(Self.describe)
        state = AnnotatedMutex(
            State(
                snapshot: ServedSnapshot(registry: registry), builtAtChange: registry.changeGeneration,
                signature: registry.store.changeSignature(), storeProblem: problem))
        watchStore()
    }

    deinit {
        watch.withLock { $0 }?.cancel()
    }

    /// Starts watching a file store for writes by other processes; returns whether the watch is set up (else the
    /// poll is the only way changes arrive).
    @discardableResult
    package func watchStore() -> Bool {
        guard let file = registry.fileStore else { return false }
        let made = try? file.watchFile { [weak self] in _ = self?.current() }
        watch.withLock { $0 = made }
        return made != nil
    }

    /// Whether writes to the store are watched (not only polled).
    package var isWatchingStore: Bool { watch.withLock { $0 != nil } }

    /// The store's error as the server reports it: what is wrong, without the store's note that flags read their
    /// defaults meanwhile (the server keeps its last values).
    static func describe(_ error: any Error) -> String {
        (error as? OverrideStoreError)?.problem ?? "\(error)"
    }

    /// Why the store is not being followed (corrupt, unreadable), or `nil` when it is.
    package var storeProblem: String? { state.withLock { $0.storeProblem } }

    /// The snapshot served now when nothing has changed since it was built, else `nil` (then ``current()`` reads
    /// the store or rebuilds). Never reads the store nor renders anything, so the conditional-GET fast path
    /// (``NotModifiedHandler``) may ask on an event loop; costs a `stat` of the store file and a lock.
    package func currentIfUnchanged() -> ServedSnapshot? {
        let signature = registry.store.changeSignature()
        return state.withLock { state -> ServedSnapshot? in
            guard signature == state.signature, state.storeProblem == nil,
                registry.changeGeneration == state.builtAtChange
            else { return nil }
            return state.snapshot
        }
    }

    /// The snapshot for a request: the registry's values now, or the last good ones while the store is bad.
    package func current() -> ServedSnapshot {
        let signature = registry.store.changeSignature()
        // Whether the store's problem changed in this call, and to what (`nil`: it went away); reported once the lock
        // is released.
        var problemChanged = false
        var newProblem: String?
        let snapshot = state.withLock { state -> ServedSnapshot in
            if signature != state.signature {
                state.signature = signature
                registry.refreshFromStore()
            }
            if let error = registry.storeError {
                let problem = Self.describe(error)
                if state.storeProblem != problem {
                    state.storeProblem = problem
                    (problemChanged, newProblem) = (true, problem)
                }
                return state.snapshot
            }
            if state.storeProblem != nil {
                state.storeProblem = nil
                (problemChanged, newProblem) = (true, nil)
            }
            // The registry's generation moves as a value is applied, before subscribers hear of it: a change
            // applied by another thread (the other watch of a second snapshot) is seen here even when its
            // notification has not run yet.
            let changes = registry.changeGeneration
            if changes != state.builtAtChange {
                state.builtAtChange = changes
                state.snapshot = ServedSnapshot(registry: registry)
            }
            return state.snapshot
        }
        if problemChanged { onStoreProblem(newProblem) }
        return snapshot
    }
}
