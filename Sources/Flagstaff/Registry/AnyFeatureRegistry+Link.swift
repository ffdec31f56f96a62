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
        var outcome = LinkOutcome()
        core.writes.withLock { _ in
            for member in allFeatures {
                var value = values[member.key]
                if let offered = value {
                    do throws(SettingValueError) {
                        try member.validate(offered)
                    } catch {
                        outcome.problems[member.key] = error.reason
                        value = nil
                    }
                }
                // Cheap for the many members without a linked value before or after.
                if value == nil, member.linkedValue == nil { continue }
                if member.applyLinkedValue(value, server: server) { outcome.changedKeys.append(member.key) }
            }
        }
        if !outcome.changedKeys.isEmpty {
            core.generation.add(1, ordering: .releasing)
            notify(FeatureChange(distinctKeys: outcome.changedKeys, origin: .remote))
        } else {
            announceObservedChanges()
        }
        return outcome
    }

    /// The members that have a linked value now.
    package var linkedFeatures: [AnyFeature] { allFeatures.filter { $0.linkedValue != nil } }
}
