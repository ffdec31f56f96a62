/// Change notification: callbacks and async streams.
extension AnyFeatureRegistry {
    /// Calls `handler` after every override change (local, by another process through the store, or a remote
    /// activation), with the keys that changed.
    ///
    /// The handler runs on the thread that made the change (the store watcher's task for external changes),
    /// after the new values are readable; it must not block.
    /// - Parameter handler: the callback.
    /// - Returns: a subscription; keep it, and cancel it (or drop it) to stop the callbacks.
    public func onChange(_ handler: @escaping @Sendable (FeatureChange) -> Void) -> ChangeSubscription {
        let id = core.state.withLock { state -> UInt64 in
            state.nextSubscriberID += 1
            state.subscribers[state.nextSubscriberID] = handler
            return state.nextSubscriberID
        }
        let core = self.core
        return ChangeSubscription { core.state.withLock { _ = $0.subscribers.removeValue(forKey: id) } }
    }

    /// A number that moves whenever an override or remote value changes or members are registered, as the change is applied (before the
    /// subscribers of ``onChange(_:)`` are called): a cache built from the registry's values is current while it
    /// has not moved.
    package var changeGeneration: UInt64 { core.generation.load(ordering: .acquiring) }

    /// A number that moves each time the registry reads its store again (a change from another process, a
    /// refresh, its own bisect step), before subscribers are told: state kept beside the store by other tools (a
    /// bisect session) is current while it has not moved, so a change made through this registry reads none of it.
    package var reloadGeneration: UInt64 { core.reloads.load(ordering: .acquiring) }

    /// A stream of every change, from now until the consumer stops iterating.
    public var changes: AsyncStream<FeatureChange> {
        AsyncStream { continuation in
            let subscription = onChange { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }

    func notify(_ change: FeatureChange) {
        announceObservedChanges()
        let handlers = core.state.withLock { Array($0.subscribers.values) }
        for handler in handlers { handler(change) }
    }

    /// Announces to the Observation framework the members queued while the registry held its locks.
    func announceObservedChanges() {
        announceStoreError()
        let members = core.observedChanges.withLock { queued in
            defer { queued = [] }
            return queued
        }
        for member in members { member.announceObservedChange() }
    }
}
