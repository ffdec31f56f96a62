import Flagstaff
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
/// temporary files, never pipes, so a child that leaves a daemon behind cannot block the call. ``start(_:_:environment:standardInput:)``
/// leaves the program running, for tests that read its output as it goes, kill it, or run several at once: the
/// one way tests run a process.
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
        try start(executable, arguments, environment: environment, standardInput: standardInput)
            .finish(timeout: timeout)
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

    /// Starts a program without waiting for it: for tests that read its output while it runs, kill it at a moment
    /// of their choosing, or run several at once.
    /// - Parameters:
    ///   - executable: the program's path.
    ///   - arguments: its arguments (without the program name).
    ///   - environment: the complete environment of the child (default: this process's).
    ///   - standardInput: bytes for standard input, or `nil` for `/dev/null`.
    /// - Returns: the running program; ``Running/finish(timeout:)`` or ``Running/stop()`` reaps it.
    /// - Throws: ``Failure``.
    package static func start(
        _ executable: URL, _ arguments: [String],
        environment: [String: String] = ProcessInfo.processInfo.environment, standardInput: Data? = nil
    ) throws -> Running {
        let directory = FileManager.default.temporaryDirectory
        let token = "\(getpid())-\(UUID().uuidString)"
        let paths = Running.Paths(
            input: directory.appendingPathComponent("run-\(token).in").path,
            output: directory.appendingPathComponent("run-\(token).out").path,
            error: directory.appendingPathComponent("run-\(token).err").path)
        if let standardInput {
            guard FileManager.default.createFile(atPath: paths.input, contents: standardInput) else {
                throw Failure.io("cannot write \(paths.input)")
            }
        }
        do {
            let pid = try ProcessSpawn.spawn(
                [executable.path] + arguments, environment: environment,
                standardInput: standardInput == nil ? "/dev/null" : paths.input,
                standardOutput: paths.output, standardError: paths.error)
            return Running(pid: pid, program: executable.lastPathComponent, paths: paths)
        } catch {
            paths.remove()
            throw Failure.spawnFailed(executable.path, reason: "\(error)")
        }
    }

    /// A program started by ``CommandRunner/start(_:_:environment:standardInput:)``. Its output goes to temporary
    /// files (removed when this object goes), which can be read while it runs. It is reaped once, under a lock:
    /// a signal is only sent to a child not yet reaped, so never to a process that reused its id.
    package final class Running: Sendable {
        struct Paths: Sendable {
            var input: String
            var output: String
            var error: String

            func remove() {
                unlink(input)
                unlink(output)
                unlink(error)
            }
        }

        /// The child's process id.
        package let pid: pid_t
        private let program: String
        private let paths: Paths
        /// The exit status once reaped.
        private let status = AnnotatedMutex<Int32?>(nil)

        init(pid: pid_t, program: String, paths: Paths) {
            self.pid = pid
            self.program = program
            self.paths = paths
        }

        deinit {
            stop()
            paths.remove()
        }

        /// Everything written to standard output so far.
        package var standardOutput: String { (try? String(contentsOfFile: paths.output, encoding: .utf8)) ?? "" }

        /// Everything written to standard error so far.
        package var standardError: String { (try? String(contentsOfFile: paths.error, encoding: .utf8)) ?? "" }

        /// Whether the program has ended (it is reaped then).
        package var hasEnded: Bool { reap(blocking: false) != nil }

        /// One of the program's output streams.
        package enum Stream: Sendable {
            case standardOutput, standardError
        }

        /// Everything written to `stream` so far.
        package func output(_ stream: Stream) -> String {
            switch stream {
            case .standardOutput: standardOutput
            case .standardError: standardError
            }
        }

        /// Waits until `stream` contains `text`, the program ends or `timeout` passes, polling on a thread of its
        /// own (``offCooperativePool(_:)``: a busy cooperative pool cannot delay the polls).
        /// - Returns: whether `text` was written.
        package func waitForOutput(
            containing text: String, in stream: Stream = .standardOutput, timeout: Duration = .seconds(60)
        ) async throws -> Bool {
            try await offCooperativePool {
                let clock = ContinuousClock()
                let deadline = clock.now + timeout
                while !self.output(stream).contains(text) {
                    if self.hasEnded || clock.now >= deadline { return self.output(stream).contains(text) }
                    usleep(2_000)
                }
                return true
            }
        }

        /// Sends `signal` unless the program has ended, then waits for it to end as ``finish(timeout:)`` does:
        /// for tests of how a program stops.
        /// - Returns: its status and output.
        /// - Throws: ``Failure/timedOut(_:seconds:)`` when it was still running at the deadline (it is killed then).
        package func stop(with signal: Int32, timeout: Duration = .seconds(60)) throws -> Result {
            status.withLock { status in
                if status == nil { kill(pid, signal) }
            }
            return try finish(timeout: timeout)
        }

        /// Kills the program with SIGKILL unless it has ended, and reaps it (at once: SIGKILL cannot be caught).
        /// - Returns: its status and output.
        @discardableResult
        package func stop() -> Result {
            status.withLock { status in
                if status == nil { kill(pid, SIGKILL) }
            }
            return result(status: reap(blocking: true) ?? -1)
        }

        /// Waits for the program to end, at most `timeout`; then it is killed.
        /// - Returns: its status and output.
        /// - Throws: ``Failure/timedOut(_:seconds:)`` when it was killed at the deadline.
        package func finish(timeout: Duration = .seconds(60)) throws -> Result {
            let clock = ContinuousClock()
            let deadline = clock.now + timeout
            var pause = Duration.microseconds(200)
            while true {
                if let status = reap(blocking: false) { return result(status: status) }
                if clock.now >= deadline {
                    stop()
                    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
                    throw Failure.timedOut(program, seconds: seconds)
                }
                // Poll with a short, growing pause (a CLI command ends in milliseconds).
                usleep(UInt32(pause.components.attoseconds / 1_000_000_000_000))
                pause = min(pause * 2, .milliseconds(10))
            }
        }

        /// Awaits the program's end as ``finish(timeout:)`` does, without blocking a cooperative thread.
        package func finish(timeout: Duration = .seconds(60)) async throws -> Result {
            try await offCooperativePool { try self.finish(timeout: timeout) }
        }

        private func result(status: Int32) -> Result {
            Result(status: status, standardOutput: standardOutput, standardError: standardError)
        }

        /// The exit status (128 + the signal number when a signal ended it), or `nil` while it runs.
        private func reap(blocking: Bool) -> Int32? {
            status.withLock { status in
                if let status { return status }
                var raw: Int32 = 0
                while true {
                    let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
                    if result == 0 { return nil }
                    if result == -1 && errno == EINTR { continue }
                    guard result == pid else {
                        status = -1
                        return -1
                    }
                    let signal = raw & 0x7F
                    status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
                    return status
                }
            }
        }
    }
}
