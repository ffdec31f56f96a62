/// Applying the launch overrides of `RegistryOptions.launchOverrides`.
extension AnyFeatureRegistry {
    /// Puts the launch values of `members` in force; refused values are reported (once per process on standard
    /// error) and listed in ``launchOverrideProblems``.
    /// - Parameters:
    ///   - members: members just discovered or registered.
    ///   - reportingUnknownKeys: whether to list launch keys no member of the registry has (at creation; keys
    ///     of members registered later are checked as they come).
    func applyLaunchOverrides(to members: [AnyFeature], reportingUnknownKeys: Bool) {
        let launch = options.launchOverrides
        guard !launch.values.isEmpty || !launch.problems.isEmpty else { return }
        var problems = reportingUnknownKeys ? launch.problems : []
        var printed = problems
        for member in members {
            switch launch.value(for: member) {
            case .success(let value)?:
                member.applyLaunchOverride(value, origin: launch.origin)
            case .failure(let error)?:
                let problem =
                    "\(LaunchOverrides.quoted(member.key)): \(error.reason) (from \(launch.origin)); ignored"
                problems.append(problem)
                printed.append(problem)
            case nil:
                continue
            }
        }
        if reportingUnknownKeys {
            for key in launch.values.keys.sorted() where feature(forKey: key) == nil {
                problems.append("\(LaunchOverrides.quoted(key)): no flag or setting has this key; ignored")
            }
        }
        LaunchOverrideReporter.report(printed)
        guard !problems.isEmpty else { return }
        core.state.withLock { state in
            state.launchOverrideProblems.append(
                contentsOf: problems.filter { !state.launchOverrideProblems.contains($0) })
        }
    }
}
