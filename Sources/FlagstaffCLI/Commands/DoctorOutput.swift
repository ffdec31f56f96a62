import Flagstaff
import Foundation

/// The text output of `flagstaff doctor`.
enum DoctorText {
    /// The widest stored value shown, in terminal columns (as `list` shows values).
    static let valueColumns = 40

    /// Prints what was fixed (with `--fix`), each finding on a line, and a summary.
    /// - Parameters:
    ///   - report: the findings (after the fix, with `--fix`).
    ///   - fixed: the findings the fix repaired, or `nil` without `--fix`.
    ///   - store: the store file, named in the summary.
    static func print(_ report: DoctorReport, fixed: [DoctorFinding]?, store: URL) {
        if let fixed {
            for finding in fixed {
                StandardStreams.out("removed \(subject(finding)) (\(finding.kind.rawValue))")
            }
            if fixed.isEmpty {
                StandardStreams.out("nothing to fix")
            } else {
                let undo =
                    fixed.contains { $0.kind != .expired }
                    ? "; `flagstaff undo` puts back all but the expired ones" : ""
                StandardStreams.out("removed \(count(fixed.count, "override")) in one write\(undo)")
            }
        }
        for finding in report.findings {
            StandardStreams.out(line(finding))
        }
        StandardStreams.out(summary(report, store: store, afterFix: fixed != nil))
    }

    /// `warning  orphan             old.flag = "on": Shop has no flag or setting with this key (fix: remove the override)`.
    static func line(_ finding: DoctorFinding) -> String {
        var text = ""
        if finding.key != nil { text = subject(finding) + ": " }
        text += TerminalText.safe(finding.message)
        if let fix = finding.fix {
            text += " (fix: \(fix.summary))"
        } else if let advice = finding.advice {
            text += " (\(TerminalText.safe(advice)))"
        }
        return TerminalText.padded(finding.severity.rawValue, to: 9)
            + TerminalText.padded(finding.kind.rawValue, to: 19) + text
    }

    /// `old.flag = "on"`: the key and the stored JSON value, cut to ``valueColumns``.
    static func subject(_ finding: DoctorFinding) -> String {
        let key = TerminalText.safe(finding.key ?? "")
        guard let value = finding.storedValue else { return key }
        return key + " = " + ValueText.cut(TerminalText.safe(value.json), toColumns: valueColumns)
    }

    /// The last line: clean, or how many findings remain and how many `--fix` would remove.
    static func summary(_ report: DoctorReport, store: URL, afterFix: Bool) -> String {
        let notes = report.findings.filter { $0.severity == .info }.count
        let problems = report.findings.count - notes
        let noteText = notes == 0 ? "" : " (\(count(notes, "note")))"
        guard problems > 0 else { return "the store \(TerminalText.safe(store.path)) is clean\(noteText)" }
        let fixable = report.fixable.count
        var text = "\(count(problems, "finding")) in \(TerminalText.safe(store.path))"
        if !afterFix && fixable > 0 {
            text += ": \(fixable) fixable with `flagstaff doctor --fix`"
            if fixable < problems { text += ", \(problems - fixable) to fix by hand" }
        } else {
            text += " to fix by hand"
        }
        return text + noteText
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// The JSON document of `flagstaff doctor --json`.
struct DoctorJSONReport: Encodable {
    /// One finding.
    struct Finding: Encodable {
        /// `orphan`, `no-op`, `expired`, `wrong-type`, `pins-current-value` or `registry-problem`.
        var kind: String
        /// `info`, `warning` or `error`.
        var severity: String
        /// The store key, absent for a registry problem that names none.
        var key: String?
        /// The stored value as the store holds it (`"on"`/`"off"` for flags), absent for a registry problem.
        var value: ReportValue?
        /// What is wrong.
        var message: String
        /// What the fix does (`remove the override`), absent when there is none.
        var fix: String?
        /// What to do by hand, absent when there is a fix.
        var advice: String?
        /// When an expired override expired.
        var expiredAt: Date?

        init(_ finding: DoctorFinding) {
            kind = finding.kind.rawValue
            severity = finding.severity.rawValue
            key = finding.key
            value = finding.storedValue.map { ReportValue($0, of: nil) }
            message = finding.message
            fix = finding.fix?.summary
            advice = finding.advice
            expiredAt = finding.expiredAt
        }
    }

    /// The registry's display name.
    var registry: String
    /// The store file.
    var store: String
    /// The manifest, absent for the demo registry.
    var manifest: String?
    /// Whether nothing but notes (`info`) is left.
    var clean: Bool
    /// The findings (after the fix, with `--fix`).
    var findings: [Finding]
    /// With `--fix`: the findings the fix repaired.
    var fixed: [Finding]?

    init(_ loaded: LoadedRegistry, report: DoctorReport, fixed: [DoctorFinding]?) {
        registry = loaded.registry.name
        store = loaded.storeURL.path
        manifest = loaded.manifestPath
        clean = report.isClean
        findings = report.findings.map(Finding.init)
        self.fixed = fixed?.map(Finding.init)
    }
}
