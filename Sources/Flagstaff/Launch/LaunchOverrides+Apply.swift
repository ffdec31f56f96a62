/// Applying launch overrides (`RegistryOptions.launchOverrides`) to a registry's members.
extension LaunchOverrides {
    /// Puts the launch values of `members` in force; refused values and unknown keys (with the nearest key, so a UI
    /// test's typo is seen) are reported once per process on standard error.
    /// - Parameters:
    ///   - members: members of `registry` just discovered or registered.
    ///   - registry: their registry (its name and keys, for unknown keys).
    ///   - reportingUnknownKeys: whether to report launch keys no member of the registry has (at creation; keys
    ///     of members registered later are checked as they come, and were reported as unknown at creation).
    /// - Returns: the problems for ``AnyFeatureRegistry/launchOverrideProblems``, and the keys of `members` that
    ///   earlier problems called unknown (no longer true).
    func apply(
        to members: [AnyFeature], of registry: AnyFeatureRegistry, reportingUnknownKeys: Bool
    ) -> (problems: [String], nowKnown: [String]) {
        guard !values.isEmpty || !problems.isEmpty else { return ([], []) }
        var found = reportingUnknownKeys ? problems : []
        var printed = found
        for member in members {
            switch value(for: member) {
            case .success(let value)?:
                member.applyLaunchOverride(value, origin: origin(of: member.key))
            case .failure(let error)?:
                let problem =
                    "\(Self.quoted(member.key)): \(error.reason) (from \(origin(of: member.key))); ignored"
                found.append(problem)
                printed.append(problem)
            case nil:
                continue
            }
        }
        if reportingUnknownKeys {
            let unknown = values.keys.sorted().filter { registry.feature(forKey: $0) == nil }
            let keys = unknown.isEmpty ? [] : registry.allFeatures.map(\.key)
            for key in unknown {
                let suggestion = KeySuggestion.nearest(to: key, among: keys).map {
                    "; did you mean \(Self.quoted($0))?"
                }
                let problem =
                    Self.unknownKeyPrefix(key)
                    + "\(registry.name) has this key\(suggestion ?? "") (from \(origin(of: key))); ignored"
                found.append(problem)
                printed.append(problem)
            }
        }
        ProcessNotes.sayOnce(printed.map { "launch overrides: \($0)" })
        // A member registered after creation with a launch key: that key is no longer unknown.
        let nowKnown =
            reportingUnknownKeys ? [] : members.filter { values[$0.key] != nil }.map { Self.unknownKeyPrefix($0.key) }
        return (found, nowKnown)
    }

    /// The start of the problem that says no member has `key`.
    static func unknownKeyPrefix(_ key: String) -> String {
        "\(quoted(key)): no flag or setting of "
    }
}
