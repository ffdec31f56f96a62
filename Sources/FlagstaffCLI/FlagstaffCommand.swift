import ArgumentParser
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
        abstract: "Inspect and force feature flags: an interactive console and scriptable commands.",
        discussion: """
            Without a subcommand, opens the console. Every subcommand works on the registry described by \
            --manifest (or $FLAGSTAFF_MANIFEST), else the built-in demo registry, and on the override store \
            given by --store (or $FLAGSTAFF_STORE), else ~/.config/flagstaff/<name>.json. Exit statuses: \
            0 ok, 1 runtime error, 2 usage error or not a terminal, 3 restart-requiring changes not restarted.
            """,
        subcommands: [
            ConsoleCommand.self,
            ListCommand.self,
            GetCommand.self,
            SetCommand.self,
            ResetCommand.self,
            ExportCommand.self,
            ImportCommand.self,
            PendingRestartCommand.self,
            ManifestCommand.self,
            FetchCommand.self,
            UnleashCommand.self,
        ],
        defaultSubcommand: ConsoleCommand.self)

    /// Parses the arguments, runs the command and exits with its status.
    static func main() {
        CLILogHandler.bootstrap()
        let status = execute(Array(CommandLine.arguments.dropFirst()))
        terminate(status)
    }

    /// Parses and runs a command line, printing results and errors.
    /// - Parameter arguments: the arguments, without the program name.
    /// - Returns: the exit status.
    static func execute(_ arguments: [String]) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
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
            if code == .validationFailure {
                if !message.isEmpty { StandardStreams.err(message) }
                return ExitStatus.usage.rawValue
            }
            StandardStreams.error(message.isEmpty ? "\(error)" : message)
            return ExitStatus.runtimeError.rawValue
        }
    }
}

/// Ends the process with a status (flushing standard output).
private func terminate(_ status: Int32) -> Never {
    exit(status)
}
