import Foundation

/// Writing overrides, applying store snapshots and watching the store.
extension FeatureRegistry {
    /// Sets a flag's override and persists it in the store.
    /// - Parameters:
    ///   - state: the new override; `.featureDefault` removes the key from the store.
    ///   - feature: a flag of this registry.
    /// - Throws: `RegistryError.notInRegistry`, or the store's error (corrupt or unwritable file); on error
    ///   nothing changes.
    public func setOverride(_ state: OverrideState, for feature: AnyFeature) throws {
        guard feature.registry === self else { throw RegistryError.notInRegistry(feature.key) }
        try setOverrides([feature.key: state])
    }

    /// Sets several overrides in one store write (keys this registry does not declare are stored too).
    /// - Parameter changes: keys and their new overrides.
    /// - Throws: the store's error; on error nothing changes.
    public func setOverrides(_ changes: [String: OverrideState]) throws {
        let change = try core.writes.withLock { _ -> FeatureChange? in
            let all: [String: OverrideState]
            do {
                all = try store.update(changes)
            } catch {
                recordStoreError(error)
                throw error
            }
            core.state.withLock { $0.storeError = nil }
            return apply(all, origin: .local)
        }
        if let change { notify(change) }
    }

    /// Resets every override of this registry's flags (overrides of keys it does not know are kept).
    /// - Throws: the store's error; on error nothing changes.
    public func resetAllOverrides() throws {
        let keys = core.state.withLock { $0.keys }
        try setOverrides(Dictionary(keys.map { ($0, OverrideState.featureDefault) }, uniquingKeysWith: { a, _ in a }))
    }

    /// Re-reads the store now and notifies subscribers of any change (the watcher does this on its own
    /// every `storeWatchInterval`).
    public func refreshFromStore() {
        let change = core.writes.withLock { _ in reloadFromStore(origin: .external) }
        if let change { notify(change) }
    }

    func recordStoreError(_ error: any Error) {
        core.state.withLock { $0.storeError = error }
    }

    /// Loads the store and applies it; on error keeps the error and falls back to defaults.
    /// - Returns: the change to notify, if any.
    @discardableResult
    func reloadFromStore(origin: FeatureChange.Origin?) -> FeatureChange? {
        let signature = store.changeSignature()
        do {
            let overrides = try store.load()
            core.state.withLock {
                $0.storeError = nil
                $0.storeSignature = signature
            }
            return apply(overrides, origin: origin)
        } catch {
            core.state.withLock {
                $0.storeError = error
                $0.storeSignature = signature
            }
            return apply([:], origin: origin)
        }
    }

    /// Makes the flags' override cells match a full store snapshot.
    /// - Returns: the keys that changed, to notify once the caller has released its locks (`nil` when nothing
    ///   changed or `origin` is `nil`, i.e. at start-up).
    func apply(_ overrides: [String: OverrideState], origin: FeatureChange.Origin?) -> FeatureChange? {
        let changed: Set<String> = core.state.withLock { state in
            let previous = state.storedOverrides
            state.storedOverrides = overrides
            var changed = Set<String>()
            if origin != nil, state.problems.isEmpty {
                // Every flag's cell already holds `previous` (start-up applied the whole store, registration
                // loads each new flag's entry): only keys whose stored entry differs can change. One write
                // then costs the size of the store, not the number of flags. (Duplicate keys, a problem,
                // share one entry between several flags: those registries take the full pass below.)
                for (key, new) in overrides where previous[key] != new { set(key, new, &changed, state) }
                for key in previous.keys where overrides[key] == nil { set(key, .featureDefault, &changed, state) }
                return changed
            }
            for (feature, key) in zip(state.features, state.keys) {
                let new = (overrides[key] ?? .featureDefault).cellValue
                if feature.overrideCell.exchange(new, ordering: .relaxed) != new { changed.insert(key) }
            }
            return changed
        }
        guard !changed.isEmpty else { return nil }
        core.generation.add(1, ordering: .relaxed)
        guard let origin else { return nil }
        return FeatureChange(keys: changed, origin: origin)
    }

    /// Puts `state` in the cell of the flag with `key` (if the registry has one), noting the key if it changed.
    private func set(_ key: String, _ state: OverrideState, _ changed: inout Set<String>, _ registry: RegistryState) {
        guard let feature = registry.byKey[key] else { return }
        let new = state.cellValue
        if feature.overrideCell.exchange(new, ordering: .relaxed) != new { changed.insert(key) }
    }

    /// Starts the watcher: a task that waits `storeWatchInterval` on the options' clock, then compares the
    /// store's change signature with the one last applied, and reloads on a difference. It holds the registry
    /// weakly and ends when the registry is deallocated (its `deinit` cancels the wait).
    func startWatchingStore() {
        guard let interval = options.storeWatchInterval, store.changeSignature() != nil else { return }
        let clock = options.clock
        let task = Task.detached(priority: .utility) { [weak self] in
            while true {
                do {
                    try await clock.sleep(for: max(interval, .milliseconds(1)))
                } catch {
                    return  // cancelled: the registry is gone
                }
                guard let registry = self else { return }
                registry.checkStoreForExternalChange()
            }
        }
        core.setWatcher(task)
    }

    private func checkStoreForExternalChange() {
        let current = store.changeSignature()
        let known = core.state.withLock { $0.storeSignature }
        guard current != known else { return }
        refreshFromStore()
    }
}
