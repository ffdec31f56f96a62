import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff doctor [--fix] [--json]`: finds overrides that do nothing or are wrong, and removes the useless
/// ones.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Find stale and broken overrides in the store; --fix removes orphans, no-ops and expired ones.",
        discussion: """
            Finds overrides for keys the registry does not declare (orphan), overrides equal to the value the \
            flag or setting has anyway (no-op), expired overrides, stored values of the wrong type, and overrides \
            that pin a value that can change (a remote value, a dynamic rule, a build target; a note only). \
            Exit status 0 when nothing but notes is found (or left after --fix), 1 otherwise. --fix removes \
            orphans, no-ops and expired overrides in one write; `flagstaff undo` puts back the orphans and \
            no-ops. See docs/doctor.md.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Remove orphans, no-ops and expired overrides in one write, then report what is left.")
    var fix = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(
        help:
            "With --fix: remove orphans even when the registry is not the one the store's app announced (--manifest, --demo on another store)."
    )
    var yes = false

    func run() throws {
        // With --fix, a store refused as corrupt for entries it cannot read is repaired (removing them).
        let loaded = try RegistryLoader.load(
            source, store: fix ? .repairable : .readable, notingStoredValueProblems: false)
        let registry = loaded.registry
        let findings: DoctorReport
        var fixed: [DoctorFinding]?
        if fix {
            // Orphans are keys this registry does not declare: against another app's registry (a stale manifest,
            // the demo on an app's store) that is every override of the app.
            let orphans = RegistryDoctor(registry).diagnose().findings.filter { $0.kind == .orphan }.count
            if orphans > 0 && !loaded.isStoresOwnRegistry && !yes {
                throw CLIFailure.runtime(
                    "doctor --fix would remove \(orphans) override(s) of keys that \(registry.name) does not declare, and it is not the registry the store's app announced; open the store alone (its announced manifest) or pass --yes to remove them; nothing was changed"
                )
            }
            if orphans > 0 {
                StandardStreams.note(
                    "removing \(orphans) override(s) of keys \(registry.name) does not declare (flagstaff undo puts them back)"
                )
            }
            let outcome: DoctorFixOutcome
            do {
                outcome = try RegistryDoctor(registry).fix()
                JournalNote.report(outcome.journalError)
            } catch {
                throw CLIFailure.runtime("\(error)")
            }
            findings = outcome.remaining
            fixed = outcome.fixed
        } else {
            findings = RegistryDoctor(registry).diagnose()
        }
        if json {
            try JSONOutput.print(DoctorJSONReport(loaded, report: findings, fixed: fixed))
        } else {
            DoctorText.print(findings, fixed: fixed, store: loaded.storeURL)
        }
        if !findings.isClean { throw ExitCode(ExitStatus.runtimeError.rawValue) }
    }
}
