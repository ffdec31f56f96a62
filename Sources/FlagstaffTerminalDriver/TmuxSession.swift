import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Errors from driving tmux.
package enum TmuxError: Error, CustomStringConvertible {
    /// A tmux command failed.
    case commandFailed(arguments: [String], status: Int32, message: String)
    /// The expected screen did not appear before the deadline; carries the last screen seen.
    case timeout(what: String, lastScreen: String)

    /// A readable message.
    package var description: String {
        switch self {
        case .commandFailed(let arguments, let status, let message):
            "tmux \(arguments.joined(separator: " ")) exited \(status): \(message)"
        case .timeout(let what, let lastScreen):
            "timed out waiting for \(what); last screen:\n\(lastScreen)"
        }
    }
}

/// A private tmux server with one detached session running a command, for end-to-end terminal tests.
///
/// Each session uses its own server socket (`tmux -L`), starts with no configuration file (`-f /dev/null`)
/// and is spawned with an empty signal mask (see ``ProcessSpawn``). The server is killed when the session is
/// released or ``kill()`` is called; tests should also `defer { session.kill() }`. `NO_COLOR` is removed from
/// the environment unless given explicitly, because `swift test` sets it when its output is not a terminal.
package final class TmuxSession: Sendable {
    /// The tmux server's socket name.
    package let socket: String
    /// The environment tmux (and so the command) runs with.
    package let environment: [String: String]

    /// Starts a server and a session running `command` through `bash -c`.
    /// - Parameters:
    ///   - command: a shell command line (bash syntax).
    ///   - width: pane columns.
    ///   - height: pane rows.
    ///   - environment: variables to set on top of this process's environment (`LANG` defaults to `C.UTF-8`).
    ///   - unsetting: variables to remove (`NO_COLOR` unless told otherwise).
    /// - Throws: ``TmuxError`` when tmux cannot start the session.
    package init(
        command: String, width: Int = 100, height: Int = 30, environment: [String: String] = [:],
        unsetting: [String] = ["NO_COLOR"]
    ) throws {
        socket = "flagstaff-test-\(getpid())-\(UUID().uuidString.prefix(8))"
        var env = ProcessInfo.processInfo.environment
        for name in unsetting { env.removeValue(forKey: name) }
        env.removeValue(forKey: "TMUX")
        env["LANG"] = "C.UTF-8"
        env.removeValue(forKey: "LC_ALL")
        env["TERM"] = env["TERM"].flatMap { $0.isEmpty || $0 == "dumb" ? nil : $0 } ?? "xterm"
        for (name, value) in environment { env[name] = value }
        self.environment = env
        let arguments = [
            "new-session", "-d", "-s", "test", "-x", "\(width)", "-y", "\(height)", "/bin/bash", "-c", command,
        ]
        // new-session's stdout must not be a pipe the test waits on: the forked server would inherit it.
        let result = try ProcessSpawn.run(tmuxArguments(arguments), environment: env, captureOutput: true)
        guard result.status == 0 else {
            throw TmuxError.commandFailed(arguments: arguments, status: result.status, message: result.standardError)
        }
        startWatchdog()
    }

    /// Kills the server if this process dies without ``kill()`` (a crashed test would otherwise leave the
    /// server and the program in it running): a detached shell loop polls this process and the socket.
    private func startWatchdog() {
        let socketPath = Self.quoted(socketPath)
        let loop =
            "while kill -0 \(getpid()) 2>/dev/null && [ -S \(socketPath) ]; do sleep 1; done; "
            + "if [ -S \(socketPath) ]; then tmux -L \(Self.quoted(socket)) kill-server; rm -f \(socketPath); fi"
        // The outer shell exits at once (and is reaped); the loop runs on in the background, owned by init.
        _ = try? ProcessSpawn.run(
            ["/bin/sh", "-c", "(\(loop)) >/dev/null 2>&1 </dev/null &"], environment: environment,
            captureOutput: false)
    }

    /// The server's socket file (removed by ``kill()``).
    private var socketPath: String {
        let directory = (environment["TMUX_TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") + "/tmux-\(getuid())"
        return directory + "/" + socket
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    deinit { kill() }

    /// Sends keys by tmux name (`Up`, `C-c`, `Escape`, `BTab`, `NPage`, `Enter`, `q`).
    /// - Parameter keys: the key names, sent in order.
    /// - Throws: ``TmuxError`` when tmux fails.
    package func sendKeys(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "test"] + keys)
    }

    /// Types text literally (no key-name lookup).
    /// - Parameter text: the characters to type.
    /// - Throws: ``TmuxError`` when tmux fails.
    package func type(_ text: String) throws {
        try tmux(["send-keys", "-t", "test", "-l", text])
    }

    /// Captures the visible pane with its colours and attributes.
    /// - Returns: the parsed screen.
    /// - Throws: ``TmuxError`` when tmux fails.
    package func capture() throws -> TmuxScreen {
        TmuxScreen(parsing: try tmux(["capture-pane", "-p", "-e", "-t", "test"]))
    }

    /// Polls the screen every 20 ms until `predicate` holds, sleeping without holding a thread of the
    /// cooperative pool (tests run in parallel on few cores).
    /// - Parameters:
    ///   - what: a description for the timeout message.
    ///   - timeout: how long to wait, 30 s unless given (a ceiling: tests run in parallel on a loaded machine).
    ///   - predicate: the condition on the captured screen.
    /// - Returns: the first screen that satisfied `predicate`.
    /// - Throws: ``TmuxError/timeout(what:lastScreen:)`` with the last screen when the deadline passes.
    @discardableResult
    package func waitFor(
        _ what: String, timeout: TimeInterval = 30, until predicate: (TmuxScreen) -> Bool
    ) async throws -> TmuxScreen {
        var last: TmuxScreen?
        let screen = try await poll(timeout: .milliseconds(Int64(timeout * 1_000))) { () throws -> TmuxScreen? in
            let screen = try capture()
            last = screen
            return predicate(screen) ? screen : nil
        }
        guard let screen else { throw TmuxError.timeout(what: what, lastScreen: last?.text ?? "") }
        return screen
    }

    /// Polls until the screen contains `text`.
    /// - Parameters:
    ///   - text: the text to wait for.
    ///   - timeout: how long to wait, 30 s unless given (a ceiling: tests run in parallel on a loaded machine).
    /// - Returns: the screen that contained it.
    /// - Throws: ``TmuxError/timeout(what:lastScreen:)`` when the deadline passes.
    @discardableResult
    package func waitFor(text: String, timeout: TimeInterval = 30) async throws -> TmuxScreen {
        try await waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Resizes the session's window (and so the pane), which sends the program `SIGWINCH`.
    /// - Parameters:
    ///   - width: new columns.
    ///   - height: new rows.
    /// - Throws: ``TmuxError`` when tmux fails.
    package func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-t", "test", "-x", "\(width)", "-y", "\(height)"])
    }

    /// The process id of the pane's shell (`bash -c …`).
    /// - Returns: the pid.
    /// - Throws: ``TmuxError`` when tmux fails or prints no number.
    package func panePID() throws -> pid_t {
        let output = try tmux(["display-message", "-p", "-t", "test", "#{pane_pid}"])
        guard let pid = pid_t(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TmuxError.commandFailed(
                arguments: ["display-message"], status: 0, message: "no pane pid in \(output)")
        }
        return pid
    }

    /// Kills the server (and the program in it). Safe to call more than once.
    package func kill() {
        _ = try? ProcessSpawn.run(tmuxArguments(["kill-server"]), environment: environment, captureOutput: true)
        // tmux leaves the dead socket file behind; remove it so test runs do not litter the socket directory
        // (and so the watchdog stops).
        unlink(socketPath)
    }

    /// Runs one tmux command against this server.
    @discardableResult
    private func tmux(_ arguments: [String]) throws -> String {
        let result = try ProcessSpawn.run(tmuxArguments(arguments), environment: environment, captureOutput: true)
        guard result.status == 0 else {
            throw TmuxError.commandFailed(arguments: arguments, status: result.status, message: result.standardError)
        }
        return result.standardOutput
    }

    private func tmuxArguments(_ arguments: [String]) -> [String] {
        ["tmux", "-u", "-L", socket, "-f", "/dev/null"] + arguments
    }
}
