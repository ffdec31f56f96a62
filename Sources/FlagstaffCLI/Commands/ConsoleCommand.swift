import ArgumentParser
import Flagstaff
import FlagstaffConsole
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flagstaff console` (the default subcommand): the interactive feature console.
struct ConsoleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console",
        abstract: "Open the interactive console (the default when no subcommand is given).",
        discussion: """
            Needs a terminal on standard input and output; from scripts use list, get and set. Exit status 3 \
            when you quit with restart-requiring changes that were not restarted.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Do not use colours (also when NO_COLOR is set).")
    var noColor = false

    @Option(
        help: ArgumentHelp(
            "A shell command (run with /bin/sh -c) that restarts the app, offered when you quit with restart-requiring changes.",
            valueName: "command"))
    var restartCommand: String?

    // `.unconditional` (as `serve --port`): `--serve -1` is a value, refused by `validate()`, not a missing one.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Also serve the flags to SDKs on [HOST:]PORT (see `flagstaff serve`); the header shows who is connected.",
            valueName: "[host:]port"))
    var serve: String?

    func validate() throws {
        if restartCommand?.trimmingCharacters(in: .whitespaces).isEmpty == true {
            throw ValidationError("--restart-command needs a command")
        }
        #if Server
        // A bad address is a usage error before the registry is loaded or the terminal is checked.
        if let serve {
            do { _ = try ServeConsoleSession.address(serve) } catch { throw ValidationError("\(error)") }
        }
        #else
        if serve != nil {
            throw ValidationError(
                "--serve: this flagstaff was built without the Server trait (build this package with its default traits)"
            )
        }
        #endif
    }

    func run() throws {
        // Only the registry and the store's location are kept: the decoded manifest is released before the
        // console opens.
        let (registry, storeURL) = try { () throws -> (AnyFeatureRegistry, URL) in
            // `console --serve` with no registry named shows the registries linked apps announce to it.
            let loaded = try RegistryLoader.load(source, watchStore: true, unnamed: serve == nil ? .demo : .linkedApps)
            // "Launch" is the app's, from the store's launch snapshot, as for `flagstaff pending-restart`.
            try LaunchBaseline.load(forStore: loaded.storeURL).install(in: loaded.registry)
            return (loaded.registry, loaded.storeURL)
        }()
        for (stream, descriptor) in [("standard input", STDIN_FILENO), ("standard output", STDOUT_FILENO)]
        where isatty(descriptor) == 0 {
            throw CLIFailure.usage(ConsoleError.notATerminal(stream: stream).description)
        }
        #if Server
        let served = try serve.map { try ServeConsoleSession.start($0, registry: registry) }
        defer { served?.stop() }
        #endif
        var options = ConsoleOptions(useColor: !noColor && ConsoleOptions.colorAllowedByEnvironment)
        if let path = CommandContext.current.environment["FLAGSTAFF_FRAME_LOG"], !path.isEmpty {
            options.frameObserver = try Self.frameLog(path)
        }
        let environment = CommandContext.current.environment
        options.editorCommand = [environment["VISUAL"], environment["EDITOR"]].lazy.compactMap { $0 }.first {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        if let restartCommand {
            options.restartHandler = { pending in
                try RestartCommandRunner.run(restartCommand, keys: pending.map(\.key))
            }
        }
        let outcome: ConsoleOutcome
        CLILogHandler.muted.store(true, ordering: .relaxed)
        defer { CLILogHandler.muted.store(false, ordering: .relaxed) }
        do {
            outcome = try FeatureConsole(registry: registry, options: options).run()
        } catch let error as ConsoleError {
            throw CLIFailure.usage(error.description)
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        try finish(outcome, registry: registry, storeURL: storeURL)
    }

    /// `FLAGSTAFF_FRAME_LOG=FILE`: appends one line per frame drawn in answer to keys, the microseconds from
    /// reading the key to handing the frame to the terminal (see docs/console.md, "Measuring").
    private static func frameLog(_ path: String) throws -> @Sendable (Duration) -> Void {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else {
            throw CLIFailure.usage("FLAGSTAFF_FRAME_LOG: cannot create the file \(path)")
        }
        return { duration in
            let microseconds =
                duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
            try? handle.write(contentsOf: Data("\(microseconds)\n".utf8))
        }
    }

    /// Prints what the user must know after the console closed, then turns the outcome into the exit status.
    ///
    /// One path for every way of leaving: `l` in the restart prompt, a second `Ctrl-C` (`SIGINT`), `SIGTERM`,
    /// `SIGHUP` and `q` in a too-small terminal all print the same restart note when a restart is still due.
    /// Status: 128 + signal, else 3 when a restart is still due, else 0.
    private func finish(_ outcome: ConsoleOutcome, registry: AnyFeatureRegistry, storeURL: URL) throws {
        if !outcome.unsavedKeys.isEmpty {
            let keys = outcome.unsavedKeys.map(TerminalText.safe).joined(separator: ", ")
            StandardStreams.note("not saved (the override store stayed locked): \(keys)")
        }
        let restarted = outcome.restartChoice == .restartNow && restartCommand != nil && outcome.signal == nil
        let restartDue = !outcome.restartRequiredKeys.isEmpty && !restarted
        if restartDue { StandardStreams.note(Self.restartNote(outcome, registry: registry)) }
        if let signal = outcome.signal { throw ExitCode(128 + signal) }
        if restarted {
            // The app has just been restarted with the current values: they are the new launch values.
            try LaunchBaseline.record(registry, forStore: storeURL)
        }
        if restartDue { throw ExitCode(ExitStatus.pendingRestart.rawValue) }
    }

    /// `restart the app to apply: a, theme (system → dark)`: the note printed whenever the console closes with a
    /// restart due; typed settings show their launch and current values.
    static func restartNote(_ outcome: ConsoleOutcome, registry: AnyFeatureRegistry? = nil) -> String {
        let items = outcome.restartRequiredKeys.map { key -> String in
            guard let member = registry?.feature(forKey: key), !(member is AnyFlag) else {
                return TerminalText.safe(key)
            }
            func shown(_ value: OverrideValue) -> String {
                let text = member.displayText(value)
                return member.settingType == .string ? "\"" + text + "\"" : text
            }
            return TerminalText.safe(
                key + " (" + shown(member.launchStoredValue) + " \u{2192} " + shown(member.currentValue) + ")")
        }
        return "restart the app to apply: " + items.joined(separator: ", ")
    }
}
