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
        mutate { mutation in
            var outcome = LinkOutcome()
            for member in allFeatures {
                applyLinkedValue(values[member.key], to: member, server: server, &outcome)
            }
            mutation.note(linkedChange(outcome))
            return outcome
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
        mutate { mutation in
            var outcome = LinkOutcome()
            for key in keys {
                guard let member = feature(forKey: key) else { continue }
                applyLinkedValue(values[key], to: member, server: server, &outcome)
            }
            mutation.note(linkedChange(outcome))
            return outcome
        }
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
