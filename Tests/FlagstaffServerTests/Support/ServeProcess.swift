import FlagstaffTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `flagstaff serve` running as a child process on an ephemeral port of 127.0.0.1, started by
/// ``CommandRunner`` (killed if a test leaves it running).
final class ServeProcess: Sendable {
    let process: CommandRunner.Running
    let port: Int
    let environment: [String: String]
    let executable: URL

    /// Starts `flagstaff serve --port 0 …` with the given environment and waits for its "serving" line.
    /// - Parameter ulimit: options of the shell's `ulimit` to start it with (`-n 200`: at most 200 open files).
    init(arguments: [String] = [], environment: [String: String], ulimit: String? = nil) async throws {
        executable = try BuildProducts.executable(named: "flagstaff")
        self.environment = environment
        let command = [executable.path, "serve", "--port", "0"] + arguments
        process =
            if let ulimit {
                try CommandRunner.start(
                    URL(fileURLWithPath: "/bin/sh"), ["-c", "ulimit \(ulimit) && exec \"$@\"", "sh"] + command,
                    environment: environment)
            } else {
                try CommandRunner.start(executable, Array(command.dropFirst()), environment: environment)
            }
        let marker = "on http://127.0.0.1:"
        guard try await process.waitForOutput(containing: marker, in: .standardError, timeout: .seconds(30)),
            let range = process.standardError.range(of: marker),
            let found = Int(process.standardError[range.upperBound...].prefix { $0.isNumber })
        else {
            throw CommandRunner.Failure.io("flagstaff serve did not start: \(process.stop())")
        }
        port = found
    }

    var pid: pid_t { process.pid }
    var baseURL: String { "http://127.0.0.1:\(port)" }
    var standardError: String { process.standardError }

    /// Runs another `flagstaff` command on the same store.
    func flagstaff(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(executable, arguments, environment: environment, timeout: .seconds(60))
    }

    /// Sends SIGTERM and waits: the exit status.
    func terminate() -> Int32 {
        stop(with: SIGTERM)
    }

    /// Sends `signal` and waits, at most 60 s: the exit status (-1 when it had to be killed at the deadline).
    func stop(with signal: Int32) -> Int32 {
        (try? process.stop(with: signal, timeout: .seconds(60)))?.status ?? -1
    }
}
