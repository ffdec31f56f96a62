import Foundation

/// Runs the console's `--restart-command` with `/bin/sh -c` when the user chooses "restart now".
///
/// The console has restored the terminal before calling it, so the command shares the terminal. It gets
/// `FLAGSTAFF_RESTART_KEYS` (the keys of the flags that need the restart, space-separated) in its environment.
enum RestartCommandRunner {
    /// Runs the command and waits for it.
    /// - Parameters:
    ///   - command: a shell command line.
    ///   - keys: the keys of the flags whose change needs the restart.
    /// - Throws: `CLIFailure.runtime` when the command cannot start or exits with a non-zero status.
    static func run(_ command: String, keys: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = CommandContext.current.environment
        environment["FLAGSTAFF_RESTART_KEYS"] = keys.joined(separator: " ")
        process.environment = environment
        do {
            try process.run()
        } catch {
            throw CLIFailure.runtime("cannot run the restart command (/bin/sh -c …): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how =
                process.terminationReason == .exit
                ? "exited with status \(process.terminationStatus)"
                : "was killed by signal \(process.terminationStatus)"
            throw CLIFailure.runtime("the restart command \(how); the app may not have restarted: \(command)")
        }
    }
}
