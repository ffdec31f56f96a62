import ArgumentParser
import Flagstaff
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flagstaff`: the feature-flag console and the scriptable commands around it.
///
/// With no subcommand it opens the console (``ConsoleCommand``). Exit statuses: 0 ok, 1 runtime error,
/// 2 usage error or not a terminal, 3 restart-requiring changes not restarted (see docs/cli.md).
@main
struct FlagstaffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flagstaff",
        abstract: "Inspect and force feature flags and settings: an interactive console and scriptable commands.",
        discussion: """
            Without a subcommand, opens the console. Every subcommand works on the registry described by \
            --manifest (or $FLAGSTAFF_MANIFEST), else the built-in demo registry, and on the override store \
            given by --store (or $FLAGSTAFF_STORE), else ~/.config/flagstaff/<name>.json. Exit statuses: \
            0 ok, 1 runtime error, 2 usage error or not a terminal, 3 restart-requiring changes not restarted. \
            --manifest and --store may also come before the subcommand.
            """,
        version: FlagstaffVersion.current,
        subcommands: [
            ConsoleCommand.self,
            ListCommand.self,
            GetCommand.self,
            SetCommand.self,
            ResetCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            HistoryCommand.self,
            UndoCommand.self,
            RedoCommand.self,
            ProfileCommand.self,
            BisectCommand.self,
            PendingRestartCommand.self,
            DoctorCommand.self,
            ManifestCommand.self,
            FetchCommand.self,
            UnleashCommand.self,
            FlagdCommand.self,
        ] + serverSubcommands,
        defaultSubcommand: ConsoleCommand.self)

    /// `serve`, when the package's Server trait is on (the default; an app that depends with `traits: []` builds
    /// `flagstaff` without it).
    private static var serverSubcommands: [any ParsableCommand.Type] {
        #if Server
        [ServeCommand.self]
        #else
        []
        #endif
    }

    /// Parses the arguments, runs the command and exits with its status.
    static func main() {
        _ = StandardDescriptors.inputWasClosed  // before any file is opened
        CLILogHandler.bootstrap()
        var status = execute(Array(CommandLine.arguments.dropFirst()))
        // Output that could not be written (`export > backup.json` on a full disk) is a failure, not status 0.
        if let problem = Platform.flushStandardOutput() {
            StandardStreams.error("cannot write standard output: \(problem); what the command printed is incomplete")
            if status == ExitStatus.ok.rawValue { status = ExitStatus.runtimeError.rawValue }
        }
        terminate(status)
    }

    /// Parses and runs a command line, printing results and errors.
    ///
    /// Every error, ArgumentParser's included, is printed as `flagstaff: error: <message>` (see
    /// ``StandardStreams/error(_:)``), with usage lines after a parser error.
    /// - Parameter arguments: the arguments, without the program name.
    /// - Returns: the exit status.
    static func execute(_ arguments: [String]) -> Int32 {
        let parsed: [String]
        switch CommandLineArguments.plan(arguments) {
        case .printVersion:
            StandardStreams.out(FlagstaffVersion.current)
            return ExitStatus.ok.rawValue
        case .usageError(let message):
            StandardStreams.error(message + "\nUsage: flagstaff <subcommand> [options]; see 'flagstaff help'")
            return ExitStatus.usage.rawValue
        case .parse(let reordered):
            parsed = reordered
        }
        do {
            var command = try parseAsRoot(parsed)
            try command.run()
            return ExitStatus.ok.rawValue
        } catch let failure as CLIFailure {
            StandardStreams.error(failure.message)
            return failure.status.rawValue
        } catch let code as ExitCode {
            return code.rawValue
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                if !message.isEmpty { StandardStreams.out(message) }
                return ExitStatus.ok.rawValue
            }
            StandardStreams.error(parserMessage(message.isEmpty ? "\(error)" : message))
            return code == .validationFailure ? ExitStatus.usage.rawValue : ExitStatus.runtimeError.rawValue
        }
    }

    /// ArgumentParser's `Error: The value…` as `the value…` (the prefix is ``StandardStreams/error(_:)``'s).
    static func parserMessage(_ message: String) -> String {
        var text = Substring(message)
        if text.hasPrefix("Error: ") { text = text.dropFirst("Error: ".count) }
        if let first = text.first, first.isUppercase, let second = text.dropFirst().first, second.isLowercase {
            return first.lowercased() + text.dropFirst()
        }
        return String(text)
    }
}

/// Ends the process with a status (flushing standard output).
private func terminate(_ status: Int32) -> Never {
    exit(status)
}
