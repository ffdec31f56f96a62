import Foundation

/// Examines an override store against the registry that reads it: overrides nobody applies (expired), for keys
/// the registry does not declare (orphans) or equal to the value their member has anyway (no-ops), values of
/// the wrong type, and the registry's own declaration problems.
///
/// ``examine(_:snapshot:now:)`` is a pure function of the registry's members, the store's contents and a date: it
/// reads no file and writes nothing, so it can run on a snapshot taken under the store's lock.
///
/// What counts as a no-op: an override equal to the member's value without it (``AnyFeature/valueWithoutOverride``,
/// which leaves out launch and test overrides) when that value comes from the declaration alone. When the value
/// without the override comes from a source that can change — a remote value (or a remote binding with no value
/// yet), a dynamic rule, a build target (the app's build may differ from the examining process's) — the override
/// pins today's value: it is reported as ``DoctorFinding/Kind/pinsCurrentValue`` (information, not
/// fixed). A member waiting for a restart is treated like any other: removing an override equal to its value
/// without one changes neither its value now nor its value after the restart.
package enum StoreDoctor {
    /// The findings for a store's contents at a moment.
    ///
    /// One finding per stored key at most (the first that applies of expired, orphan, wrong type, no-op or pin),
    /// after one finding per registry declaration problem. Findings are ordered: registry problems in
    /// declaration order, then store entries by key.
    /// - Parameters:
    ///   - registry: the registry whose members the overrides are checked against.
    ///   - snapshot: the store's contents: every entry, expired ones and keys the registry does not declare
    ///     included, with the expiry of those that have one.
    ///   - now: the moment expiry is judged at (a registry judges at its ``RegistryOptions/wallClock``'s date, never
    ///     going backwards).
    /// - Returns: the report.
    package static func examine(_ registry: AnyFeatureRegistry, snapshot: StoreSnapshot, now: Date) -> DoctorReport {
        var expired: [String: Date] = [:]
        for key in snapshot.expiredKeys(at: now) {
            expired[key] = snapshot.expiries[key]?.expiresAt
        }
        return examine(registry, overrides: snapshot.overrides, expired: expired)
    }

    /// The findings for a store's entries, given which have expired (see ``examine(_:snapshot:now:)``).
    /// - Parameters:
    ///   - registry: the registry whose members the overrides are checked against.
    ///   - overrides: every entry of the store, including expired ones and keys the registry does not declare.
    ///   - expired: the keys of entries whose expiry has passed, with the moment they expired.
    /// - Returns: the report.
    package static func examine(
        _ registry: AnyFeatureRegistry, overrides: [String: OverrideValue], expired: [String: Date] = [:]
    ) -> DoctorReport {
        var findings = registry.problems.map(finding(for:))
        for key in overrides.keys.sorted() {
            guard let value = overrides[key] else { continue }
            if let finding = finding(key: key, value: value, expiredAt: expired[key], in: registry) {
                findings.append(finding)
            }
        }
        return DoctorReport(registryName: registry.name, findings: findings)
    }

    /// The finding for one store entry, or `nil` when the entry is fine.
    static func finding(key: String, value: OverrideValue, expiredAt: Date?, in registry: AnyFeatureRegistry)
        -> DoctorFinding?
    {
        if let expiredAt {
            return DoctorFinding(
                kind: .expired, severity: .warning, key: key, storedValue: value,
                message: "expired at \(CivilDate.timestampText(expiredAt)); no one applies it",
                fix: .removeOverride(key), expiredAt: expiredAt)
        }
        guard let member = registry.feature(forKey: key) else {
            return DoctorFinding(
                kind: .orphan, severity: .warning, key: key, storedValue: value,
                message: "\(registry.name) has no flag or setting with this key", fix: .removeOverride(key))
        }
        do {
            try member.validate(value)
        } catch {
            return DoctorFinding(
                kind: .wrongType, severity: .error, key: key, storedValue: value,
                message: "stored value \(value.summary) is ignored: \(error.reason)",
                advice: "set a valid value or reset it")
        }
        let without = member.valueWithoutOverride
        guard value == without else { return nil }
        let resolution = member.explanation
        let changingSource = resolution.chain.lazy.map(\.source).first(where: isChanging)
        let shown = member.displayText(without)
        if changingSource == nil, !AnyFeatureRegistry.declarationGives(value, to: member) {
            // Declared remote, dynamic or build-target (a manifest's member resolves to its default here): the app's
            // value can differ, so the override is a pin, as a bulk change writes it.
            let kind = member.kind == .buildTarget ? "build-target" : member.kind == .dynamic ? "dynamic" : "remote"
            return DoctorFinding(
                kind: .pinsCurrentValue, severity: .info, key: key, storedValue: value,
                message:
                    "equals its value without the override here (\(shown) by default), but the member is \(kind) in the app, where that value can differ: the override keeps this value",
                advice: "remove it to follow the app's \(kind) value")
        }
        if let changingSource {
            return DoctorFinding(
                kind: .pinsCurrentValue, severity: .info, key: key, storedValue: value,
                message:
                    "equals its value without the override now (\(shown) from \(changingSource.displayName)), which can change: the override keeps this value",
                advice: "remove it to follow the \(changingSource.displayName) value again")
        }
        return DoctorFinding(
            kind: .noOp, severity: .warning, key: key, storedValue: value,
            message: "equals its value without the override (\(shown) by default)", fix: .removeOverride(key))
    }

    /// Whether a source of a member's value without override can give another value later or elsewhere.
    static func isChanging(_ source: ResolutionSource) -> Bool {
        switch source {
        case .remote, .dynamic, .buildTarget, .link: return true
        case .testOverride, .launch, .override, .static: return false
        }
    }

    /// The finding for a store entry the store cannot read (see ``StoreRepair``): `problem` is its JSON path and
    /// what is wrong.
    static func unreadableEntry(key: String, problem: String) -> DoctorFinding {
        DoctorFinding(
            kind: .unreadableEntry, severity: .error, key: key,
            message: "the store cannot read this entry (\(problem)), so it refused every read",
            fix: .removeOverride(key))
    }

    static func finding(for problem: RegistryProblem) -> DoctorFinding {
        let key: String?
        switch problem {
        case .duplicateKey(let duplicated, _, _): key = duplicated
        case .invalidKey(let invalid, _, _): key = invalid
        case .sameFeatureTwice, .declaredInAnotherRegistry: key = nil
        }
        return DoctorFinding(kind: .registryProblem, severity: .error, key: key, message: problem.description)
    }
}
