import FlagstaffTerminalDriver
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a program to completion for a test: arguments, environment and standard input in; standard output,
/// standard error and exit status out.
///
/// The child is started by ``ProcessSpawn`` (`posix_spawn` with an empty signal mask and default signal
/// dispositions). This adds what CLI tests need on top: standard input from bytes, and a deadline: a child
/// still running then is killed and reported as ``Failure/timedOut(_:seconds:)``. Output goes through
/// temporary files, never pipes, so a child that leaves a daemon behind cannot block the call.
package enum CommandRunner {
    /// What a finished program left behind.
    package struct Result: Sendable, CustomStringConvertible {
        /// The exit status, or 128 + the signal number when a signal ended it.
        package var status: Int32
        /// Everything written to standard output.
        package var standardOutput: String
        /// Everything written to standard error.
        package var standardError: String

        /// The status and both streams, for test failure messages.
        package var description: String {
            "exit status \(status)\n--- stdout ---\n\(standardOutput)--- stderr ---\n\(standardError)"
        }
    }

    /// Why a program could not be run.
    package enum Failure: Error, CustomStringConvertible {
        /// The program could not be started.
        case spawnFailed(String, reason: String)
        /// The program was still running at the deadline and was killed.
        case timedOut(String, seconds: Double)
        /// A temporary file could not be written.
        case io(String)

        /// A readable message.
        package var description: String {
            switch self {
            case .spawnFailed(let program, let reason): return "cannot start \(program): \(reason)"
            case .timedOut(let program, let seconds): return "\(program) still running after \(seconds) s; killed"
            case .io(let message): return message
            }
        }
    }

    /// Runs a program and waits for it.
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments (without the program name).
    ///   - environment: the complete environment of the child.
    ///   - standardInput: bytes for standard input, or `nil` for `/dev/null`.
    ///   - timeout: how long to wait before killing it.
    /// - Returns: the exit status and captured output.
    /// - Throws: ``Failure``.
    package static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String],
        standardInput: Data? = nil, timeout: Duration = .seconds(60)
    ) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
        let token = "\(getpid())-\(UUID().uuidString)"
        let inPath = directory.appendingPathComponent("run-\(token).in").path
        let outPath = directory.appendingPathComponent("run-\(token).out").path
        let errPath = directory.appendingPathComponent("run-\(token).err").path
        defer {
            unlink(inPath)
            unlink(outPath)
            unlink(errPath)
        }
        if let standardInput {
            guard FileManager.default.createFile(atPath: inPath, contents: standardInput) else {
                throw Failure.io("cannot write \(inPath)")
            }
        }
        let pid: pid_t
        do {
            pid = try ProcessSpawn.spawn(
                [executable.path] + arguments, environment: environment,
                standardInput: standardInput == nil ? "/dev/null" : inPath,
                standardOutput: outPath, standardError: errPath)
        } catch {
            throw Failure.spawnFailed(executable.path, reason: "\(error)")
        }
        let status = try wait(for: pid, timeout: timeout, program: executable.lastPathComponent)
        let out = (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        return Result(status: status, standardOutput: out, standardError: err)
    }

    /// Runs a program and awaits it without blocking a cooperative thread (see ``offCooperativePool(_:)``).
    /// - Parameters: as ``run(_:_:environment:standardInput:timeout:)``.
    /// - Returns: the exit status and captured output.
    /// - Throws: ``Failure``.
    package static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String],
        standardInput: Data? = nil, timeout: Duration = .seconds(60)
    ) async throws -> Result {
        try await offCooperativePool {
            try run(executable, arguments, environment: environment, standardInput: standardInput, timeout: timeout)
        }
    }

    private static func wait(for pid: pid_t, timeout: Duration, program: String) throws -> Int32 {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var status: Int32 = 0
        var pause = Duration.microseconds(200)
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result == -1 && errno != EINTR { return -1 }
            if clock.now >= deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                throw Failure.timedOut(program, seconds: seconds)
            }
            // Poll the child with a short, growing pause (a CLI command ends in milliseconds).
            usleep(UInt32(pause.components.attoseconds / 1_000_000_000_000))
            pause = min(pause * 2, .milliseconds(10))
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
