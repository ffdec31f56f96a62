import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff bisect start|good|bad|status|reset`: finds the override that causes a problem.
struct BisectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the override that causes a problem, halving the overrides at each step.",
        discussion: """
            'start' takes the current overrides (or those matching --match) as candidates, assuming the problem \
            appears with all of them and not with none, and applies half of them (the others are removed; other \
            overrides are not touched). Restart the app, then answer 'good' (the problem is gone) or 'bad' (it \
            is still there); each answer applies the next half. One culprit among N candidates is found in at \
            most ⌈log₂ N⌉ answers. 'reset' puts every candidate back as it was before 'start'. The state is kept \
            beside the store (<store>.bisect.json), so it survives restarts. Each step is one change in the \
            history, origin bisect.
            """,
        subcommands: [
            BisectStartCommand.self, BisectGoodCommand.self, BisectBadCommand.self, BisectStatusCommand.self,
            BisectResetCommand.self,
        ])
}

/// `flagstaff bisect start [--match PATTERN]`.
struct BisectStartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start", abstract: "Start a bisect over the current overrides (or those matching --match).")

    @OptionGroup var source: RegistrySourceOptions

    @Option(
        help: ArgumentHelp(
            "Only overrides whose key matches this glob (checkout.*) are candidates.", valueName: "pattern"))
    var match: String?

    func run() throws {
        let (loaded, store) = try BisectReport.open(source)
        let session = try BisectReport.perform { try store.startBisect(matching: match) }
        loaded.registry.refreshFromStore()
        let scope = match.map { " matching '\(TerminalText.safe($0))'" } ?? ""
        StandardStreams.out(
            "bisect started: \(session.candidates.count) candidate override(s)\(scope); at most \(session.answersLeft) answer(s) needed"
        )
        BisectReport.printStep(session, registry: loaded.registry)
    }
}

/// `flagstaff bisect good`.
struct BisectGoodCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "good", abstract: "The problem is gone with the overrides under test.")

    @OptionGroup var source: RegistrySourceOptions

    func run() throws { try BisectReport.answer(.good, source: source) }
}

/// `flagstaff bisect bad`.
struct BisectBadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bad", abstract: "The problem is still there with the overrides under test.")

    @OptionGroup var source: RegistrySourceOptions

    func run() throws { try BisectReport.answer(.bad, source: source) }
}

/// `flagstaff bisect status [--json]`.
struct BisectStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the step, the overrides under test and what remains.",
        discussion: """
            --json prints {"done": Bool, "culprit": KEY or null, "testing": [KEYS], "remaining": N}. Exit status 1 \
            when no bisect is in progress.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let (loaded, store) = try BisectReport.open(source)
        guard let session = try BisectReport.perform({ try store.bisectSession() }) else {
            throw BisectReport.failure(BisectError(code: .noSession))
        }
        if json {
            let culprit = session.culprit.map(HistoryOutput.quoted) ?? "null"
            StandardStreams.out(
                #"{"done": \#(session.isDone), "culprit": \#(culprit), "testing": \#(HistoryOutput.json(session.testing)), "remaining": \#(session.remaining.count)}"#
            )
            return
        }
        let scope = session.pattern.map { " matching '\(TerminalText.safe($0))'" } ?? ""
        StandardStreams.out(
            "bisect started \(HistoryOutput.time(session.startedAt)) UTC over \(session.candidates.count) candidate override(s)\(scope); \(session.answers.count) answer(s) so far"
        )
        BisectReport.printStep(session, registry: loaded.registry)
        let drift = session.changedCandidates(in: loaded.registry.storedOverrides, at: loaded.registry.now)
        for item in drift {
            StandardStreams.note("the store changed since this step: \(item)")
        }
    }
}

/// `flagstaff bisect reset`.
struct BisectResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "End the bisect and put every candidate back as it was before 'start'.",
        discussion: """
            Overrides that were not candidates are left as they are. A candidate someone changed during the \
            bisect gets its value from before the start too (a note names it); one whose expiry has passed \
            meanwhile is not put back.
            """)

    @OptionGroup var source: RegistrySourceOptions

    func run() throws {
        let (loaded, _) = try BisectReport.open(source)
        let before = loaded.registry.storedOverrides
        let outcome = try BisectReport.perform { try Bisection(loaded.registry).reset() }
        loaded.registry.refreshFromStore()
        let after = loaded.registry.storedOverrides
        let changed = outcome.session.candidates.keys.sorted().filter { before[$0] != after[$0] }
        for key in changed {
            StandardStreams.out(
                "\(TerminalText.safe(key)): \(HistoryOutput.text(before[key])) → \(HistoryOutput.text(after[key]))")
        }
        for item in outcome.drift {
            StandardStreams.note("changed during the bisect, now restored: \(item)")
        }
        StandardStreams.note(
            "bisect ended: the \(outcome.session.candidates.count) candidate override(s) are as before the start"
                + (changed.isEmpty ? " (nothing to change)" : ""))
    }
}

/// What the bisect commands share: opening the store, reporting errors and steps.
enum BisectReport {
    /// The registry and its file store.
    static func open(_ source: RegistrySourceOptions) throws -> (LoadedRegistry, FileOverrideStore) {
        let loaded = try RegistryLoader.load(source)
        guard let store = loaded.registry.fileStore else {
            throw CLIFailure.runtime(BisectError(code: .notFileStore).description)
        }
        return (loaded, store)
    }

    /// Runs a bisect operation, turning its errors into failures with what to do next.
    static func perform<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BisectError {
            throw failure(error)
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
    }

    /// A bisect error as a failure (status 1) with a hint.
    static func failure(_ error: BisectError) -> CLIFailure {
        let hint: String
        switch error.code {
        case .noSession: hint = "; start one with 'flagstaff bisect start'"
        case .alreadyStarted:
            hint = "; answer with 'flagstaff bisect good' or 'bad', or end it with 'flagstaff bisect reset'"
        case .finished: hint = "; 'flagstaff bisect reset' puts your overrides back"
        case .storeChanged:
            hint =
                "; set them back and answer again, or end the bisect with 'flagstaff bisect reset' (nothing was changed)"
        case .corruptState:
            hint =
                "; nothing was changed. Remove the file to abandon the bisect (the overrides from before the start cannot be restored from it)"
        default: hint = ""
        }
        return CLIFailure.runtime(error.description + hint)
    }

    /// Records an answer and prints the next step or the culprit.
    static func answer(_ answer: BisectAnswer, source: RegistrySourceOptions) throws {
        let (loaded, _) = try open(source)
        let session = try perform { try Bisection(loaded.registry).answer(answer) }
        loaded.registry.refreshFromStore()
        printStep(session, registry: loaded.registry)
    }

    /// The current step (what is under test and what to do), or the culprit.
    static func printStep(_ session: BisectSession, registry: AnyFeatureRegistry) {
        if let culprit = session.culprit {
            let value = session.candidates[culprit].map { HistoryOutput.text($0) } ?? "?"
            StandardStreams.out(
                "the culprit is \(TerminalText.safe(culprit)) (\(value)), found after \(session.answers.count) answer(s)"
            )
            StandardStreams.out(
                "the store holds it alone of the candidates; 'flagstaff bisect reset' puts them all back")
            return
        }
        StandardStreams.out(
            "step \(session.step): testing \(session.testing.count) of \(session.remaining.count) remaining candidate(s), at most \(session.answersLeft) more answer(s):"
        )
        for key in session.testing {
            let value = session.candidates[key].map { HistoryOutput.text($0) } ?? "?"
            StandardStreams.out("    \(TerminalText.safe(key)): \(value)")
        }
        StandardStreams.out(
            "restart the app, then run 'flagstaff bisect good' (the problem is gone) or 'flagstaff bisect bad' (it is still there)"
        )
    }
}
