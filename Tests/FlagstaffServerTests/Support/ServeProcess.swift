import FlagstaffTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `flagstaff serve` running as a child process on an ephemeral port of 127.0.0.1.
final class ServeProcess: Sendable {
    let pid: pid_t
    let port: Int
    let errorPath: String
    let environment: [String: String]
    let executable: URL

    /// Starts `flagstaff serve --port 0 …` with the given environment and waits for its "serving" line.
    /// - Parameter ulimit: options of the shell's `ulimit` to start it with (`-n 200`: at most 200 open files).
    init(arguments: [String] = [], environment: [String: String], ulimit: String? = nil) async throws {
        executable = try BuildProducts.executable(named: "flagstaff")
        self.environment = environment
        errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).err").path
        let command = [executable.path, "serve", "--port", "0"] + arguments
        pid = try ProcessSpawn.spawn(
            ulimit.map { ["/bin/sh", "-c", "ulimit \($0) && exec \"$@\"", "sh"] + command } ?? command,
            environment: environment, standardError: errorPath)
        let path = errorPath
        let found = try await poll(timeout: .seconds(30)) { () -> Int? in
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            guard let range = text.range(of: "on http://127.0.0.1:") else { return nil }
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        guard let found else {
            kill(pid, SIGKILL)
            ProcessSpawn.wait(for: pid)
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            throw CommandRunner.Failure.io("flagstaff serve did not start: \(text)")
        }
        port = found
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Runs another `flagstaff` command on the same store.
    func flagstaff(_ arguments: [String]) throws -> CommandRunner.Result {
        try CommandRunner.run(executable, arguments, environment: environment, timeout: .seconds(60))
    }

    /// Sends SIGTERM and waits: the exit status.
    func terminate() -> Int32 {
        stop(with: SIGTERM)
    }

    /// Sends `signal` and waits: the exit status.
    func stop(with signal: Int32) -> Int32 {
        kill(pid, signal)
        let status = ProcessSpawn.wait(for: pid)
        unlink(errorPath)
        return status
    }
}
