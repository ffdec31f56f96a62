/// What the store doctor found (see ``StoreDoctor``).
package struct DoctorReport: Sendable, Hashable {
    /// The display name of the registry examined.
    package var registryName: String
    /// The findings: registry problems first, then store entries by key.
    package var findings: [DoctorFinding]

    /// Creates a report.
    package init(registryName: String, findings: [DoctorFinding]) {
        self.registryName = registryName
        self.findings = findings
    }

    /// Whether nothing above ``DoctorSeverity/info`` was found.
    package var isClean: Bool { !findings.contains { $0.severity > .info } }

    /// The findings with a fix.
    package var fixable: [DoctorFinding] { findings.filter { $0.fix != nil } }

    /// The findings without a fix.
    package var unfixable: [DoctorFinding] { findings.filter { $0.fix == nil } }

    /// Every fix as one store change (key → new value, `nil` to remove).
    package var fixChanges: [String: OverrideEdit] {
        var changes: [String: OverrideEdit] = [:]
        for finding in findings {
            guard let fix = finding.fix else { continue }
            for (key, value) in fix.changes { changes[key] = value }
        }
        return changes
    }
}
