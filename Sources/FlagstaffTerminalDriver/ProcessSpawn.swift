import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs programs for tests with `posix_spawn`, an empty signal mask and default signal dispositions.
///
/// Test threads run with INT, TERM, WINCH, CHLD… blocked; a plain spawn passes that mask on, so the child
/// never sees a resize or a `kill`. `Foundation.Process` can also hang waiting for a forked daemon (tmux)
/// that inherited a pipe. This helper captures output through temporary files, never pipes, so a daemon
/// that outlives the call cannot block it.
package enum ProcessSpawn {
    /// What a finished program left behind.
    package struct Result: Sendable {
        /// Exit status, or 128 + signal number when the program was killed by a signal.
        package var status: Int32
        /// Everything written to standard output (empty when not captured).
        package var standardOutput: String
        /// Everything written to standard error (empty when not captured).
        package var standardError: String
    }

    /// Errors from spawning.
    package enum SpawnError: Error, CustomStringConvertible {
        /// `posix_spawn` failed for the program.
        case spawnFailed(program: String, errno: Int32)

        /// A readable message.
        package var description: String {
            switch self {
            case .spawnFailed(let program, let code): "cannot start \(program): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Runs a program to completion.
    /// - Parameters:
    ///   - arguments: the program (looked up in `PATH`) and its arguments.
    ///   - environment: the complete environment; `nil` passes this process's environment.
    ///   - captureOutput: `true` to collect stdout and stderr, `false` to send them to `/dev/null`.
    ///   - standardInput: a file to use as stdin; `/dev/null` by default.
    /// - Returns: the exit status and captured output.
    /// - Throws: ``SpawnError`` when the program cannot be started.
    @discardableResult
    package static func run(
        _ arguments: [String], environment: [String: String]? = nil, captureOutput: Bool = true,
        standardInput: String = "/dev/null"
    ) throws -> Result {
        let directory = FileManager.default.temporaryDirectory
        let token = UUID().uuidString
        let outPath = directory.appendingPathComponent("spawn-\(token).out").path
        let errPath = directory.appendingPathComponent("spawn-\(token).err").path
        defer {
            unlink(outPath)
            unlink(errPath)
        }
        let pid = try spawn(
            arguments, environment: environment, standardInput: standardInput,
            standardOutput: captureOutput ? outPath : "/dev/null", standardError: captureOutput ? errPath : "/dev/null"
        )
        let status = wait(for: pid)
        let out = captureOutput ? (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "" : ""
        let err = captureOutput ? (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "" : ""
        return Result(status: status, standardOutput: out, standardError: err)
    }

    /// This process's open file descriptors (from `/proc/self/fd`; none where it does not exist).
    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap { Int32($0) }
    }

    /// Starts a program without waiting for it.
    /// - Parameters:
    ///   - arguments: the program (looked up in `PATH`) and its arguments.
    ///   - environment: the complete environment; `nil` passes this process's environment.
    ///   - standardInput: path opened read-only as stdin.
    ///   - standardOutput: path opened (created, truncated) as stdout.
    ///   - standardError: path opened (created, truncated) as stderr.
    /// - Returns: the child's process id; reap it with ``wait(for:)``.
    /// - Throws: ``SpawnError`` when the program cannot be started.
    package static func spawn(
        _ arguments: [String], environment: [String: String]? = nil, standardInput: String = "/dev/null",
        standardOutput: String = "/dev/null", standardError: String = "/dev/null"
    ) throws -> pid_t {
        guard let program = arguments.first else { throw SpawnError.spawnFailed(program: "(none)", errno: EINVAL) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, standardError, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else is inherited: a long-lived child (a tmux server) holding a copy of another test's pipe
        // would keep that pipe's reader from ever seeing its end. (A descriptor closed meanwhile is ignored.)
        for descriptor in openDescriptors() where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let env = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let code = withCStringArray(arguments) { argv in
            withCStringArray(env) { envp in
                posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        guard code == 0 else { throw SpawnError.spawnFailed(program: program, errno: code) }
        return pid
    }

    /// Waits for a child to end.
    /// - Parameter pid: a process id returned by ``spawn(_:environment:standardInput:standardOutput:standardError:)``.
    /// - Returns: its exit status, or 128 + the signal number that ended it.
    @discardableResult
    package static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return -1 }
        }
        let signal = status & 0x7F
        if signal == 0 { return (status >> 8) & 0xFF }
        return 128 + signal
    }

    /// The ids of the direct children of a process, read from `/proc`.
    /// - Parameter parent: the parent's process id.
    /// - Returns: child process ids (empty when none or when `/proc` is unavailable).
    package static func childProcesses(of parent: pid_t) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var children: [pid_t] = []
        for entry in entries {
            guard let pid = pid_t(entry),
                let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // Fields after the command name: state, ppid, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == parent { children.append(pid) }
        }
        return children
    }

    /// Calls `body` with a NULL-terminated C array of strings that lives for the call.
    private static func withCStringArray<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
