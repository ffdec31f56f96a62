/// Applying the launch overrides of `RegistryOptions.launchOverrides`.
extension AnyFeatureRegistry {
    /// Puts the launch values of `members` in force; refused values and unknown keys (with the nearest key, so a UI
    /// test's typo is seen) are reported once per process on standard error and listed in ``launchOverrideProblems``.
    /// - Parameters:
    ///   - members: members just discovered or registered.
    ///   - reportingUnknownKeys: whether to report launch keys no member of the registry has (at creation; keys
    ///     of members registered later are checked as they come, and were reported as unknown at creation).
    func applyLaunchOverrides(to members: [AnyFeature], reportingUnknownKeys: Bool) {
        let launch = options.launchOverrides
        guard !launch.values.isEmpty || !launch.problems.isEmpty else { return }
        var problems = reportingUnknownKeys ? launch.problems : []
        var printed = problems
        for member in members {
            switch launch.value(for: member) {
            case .success(let value)?:
                member.applyLaunchOverride(value, origin: launch.origin(of: member.key))
            case .failure(let error)?:
                let problem =
                    "\(LaunchOverrides.quoted(member.key)): \(error.reason) (from \(launch.origin(of: member.key))); ignored"
                problems.append(problem)
                printed.append(problem)
            case nil:
                continue
            }
        }
        if reportingUnknownKeys {
            let unknown = launch.values.keys.sorted().filter { feature(forKey: $0) == nil }
            let keys = unknown.isEmpty ? [] : allFeatures.map(\.key)
            for key in unknown {
                let suggestion = KeySuggestion.nearest(to: key, among: keys).map {
                    "; did you mean \(LaunchOverrides.quoted($0))?"
                }
                let problem =
                    Self.unknownKeyPrefix(key)
                    + "\(name) has this key\(suggestion ?? "") (from \(launch.origin(of: key))); ignored"
                problems.append(problem)
                printed.append(problem)
            }
        }
        ProcessNotes.sayOnce(printed.map { "launch overrides: \($0)" })
        // A member registered after creation with a launch key: that key is no longer unknown.
        let known =
            reportingUnknownKeys
            ? [] : members.filter { launch.values[$0.key] != nil }.map { Self.unknownKeyPrefix($0.key) }
        guard !problems.isEmpty || !known.isEmpty else { return }
        core.state.withLock { state in
            state.launchOverrideProblems.removeAll { problem in known.contains { problem.hasPrefix($0) } }
            state.launchOverrideProblems.append(
                contentsOf: problems.filter { !state.launchOverrideProblems.contains($0) })
        }
    }

    /// The start of the problem that says no member has `key`.
    private static func unknownKeyPrefix(_ key: String) -> String {
        "\(LaunchOverrides.quoted(key)): no flag or setting of "
    }
}
