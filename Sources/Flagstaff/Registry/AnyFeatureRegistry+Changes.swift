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

    /// Queues `member` to be announced to the Observation framework once the registry has released its locks
    /// (``AnyFeature/queueObservedChange()``).
    func queueObservedChange(of member: AnyFeature) {
        core.observedChanges.withLock { $0.append(member) }
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

/// Linked values: a flag server's values put in force above the app's own (``ResolutionSource/link(server:)``).
extension AnyFeatureRegistry {
    /// What ``applyLinkedValues(_:server:)`` did.
    package struct LinkOutcome: Sendable, Equatable {
        /// The keys whose linked value changed.
        package var changedKeys: [String] = []
        /// Values refused by the member under their key (wrong type, out of range): key → reason. Those members
        /// keep their own value.
        package var problems: [String: String] = [:]
    }

    /// Puts `values` in force as linked values from `server`; every member whose key is not in `values` loses its
    /// linked value (an empty dictionary unlinks the whole registry). Keys no member has are ignored.
    ///
    /// Subscribers are told once, with origin ``FeatureChange/Origin/remote``; observers of each changed member
    /// are told too. Nothing is written to the store.
    /// - Parameters:
    ///   - values: the values by key, as the members store them (`"on"`/`"off"` for flags).
    ///   - server: names the server in explanations (scheme, host and port).
    /// - Returns: the keys that changed and the values refused.
    @discardableResult
    package func applyLinkedValues(_ values: [String: OverrideValue], server: String) -> LinkOutcome {
        applyLinked { outcome in
            for member in allFeatures {
                applyLinkedValue(values[member.key], to: member, server: server, &outcome)
            }
        }
    }

    /// As ``applyLinkedValues(_:server:)``, for the members of `keys` only: each takes its value in `values`, or
    /// loses its linked value when `values` has none; every other member keeps its linked value. What a link
    /// does with an answer that changed a few keys (no work for the others).
    /// - Parameters:
    ///   - values: the values of (some of) `keys`.
    ///   - keys: the keys to update; keys no member has are ignored.
    ///   - server: names the server in explanations.
    /// - Returns: the keys that changed and the values refused, among `keys`.
    @discardableResult
    package func updateLinkedValues(_ values: [String: OverrideValue], keys: Set<String>, server: String)
        -> LinkOutcome
    {
        applyLinked { outcome in
            for key in keys {
                guard let member = feature(forKey: key) else { continue }
                applyLinkedValue(values[key], to: member, server: server, &outcome)
            }
        }
    }

    /// Runs `apply` (which gives members their linked values) as one change of the registry, then tells
    /// subscribers what changed, or only observers when no key did.
    private func applyLinked(_ apply: (inout LinkOutcome) -> Void) -> LinkOutcome {
        let outcome = mutate { mutation in
            var outcome = LinkOutcome()
            apply(&outcome)
            mutation.note(linkedChange(outcome))
            return outcome
        }
        if outcome.changedKeys.isEmpty { announceObservedChanges() }
        return outcome
    }

    /// Validates and applies one member's linked value (under the registry's write lock).
    private func applyLinkedValue(
        _ offered: OverrideValue?, to member: AnyFeature, server: String, _ outcome: inout LinkOutcome
    ) {
        var value = offered
        if let offered {
            do throws(SettingValueError) {
                try member.validate(offered)
            } catch {
                outcome.problems[member.key] = error.reason
                value = nil
            }
        }
        // Cheap for the many members without a linked value before or after.
        if value == nil, member.linkedValue == nil { return }
        if member.applyLinkedValue(value, server: server) { outcome.changedKeys.append(member.key) }
    }

    /// What to tell subscribers of what a link changed, if anything (observers are told in any case).
    private func linkedChange(_ outcome: LinkOutcome) -> FeatureChange? {
        guard !outcome.changedKeys.isEmpty else { return nil }
        core.generation.add(1, ordering: .releasing)
        return FeatureChange(distinctKeys: outcome.changedKeys, origin: .remote)
    }

    /// The members that have a linked value now.
    package var linkedFeatures: [AnyFeature] { allFeatures.filter { $0.linkedValue != nil } }
}

extension AnyFeatureRegistry {
    /// The keys of the settings bound to `source` whose remote key is one of `remoteKeys` (what a source passes
    /// to ``notifyRemoteChange(keys:)`` after its values changed).
    /// - Parameters:
    ///   - source: the remote source.
    ///   - remoteKeys: the source's keys whose values changed.
    package func settingKeys(boundTo source: any SettingRemoteSource, remoteKeys: Set<String>) -> Set<String> {
        var keys: Set<String> = []
        for member in allFeatures {
            guard let setting = member as? any RemoteBindableSetting, let binding = setting.remoteBinding,
                binding.source === source, remoteKeys.contains(binding.key)
            else { continue }
            keys.insert(setting.key)
        }
        return keys
    }
}
