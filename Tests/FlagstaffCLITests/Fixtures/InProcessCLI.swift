import Flagstaff
import FlagstaffTestSupport
import Foundation

@testable import FlagstaffCLI

/// What a `flagstaff` command left behind, whether it ran in process or as a process.
struct CLIResult: Sendable, CustomStringConvertible {
    /// The exit status (`FlagstaffCommand.execute`'s return value in process).
    var status: Int32
    /// Everything written to standard output.
    var standardOutput: String
    /// Everything written to standard error.
    var standardError: String

    /// The status and both streams, for test failure messages.
    var description: String {
        "exit status \(status)\n--- stdout ---\n\(standardOutput)--- stderr ---\n\(standardError)"
    }
}

/// Runs `flagstaff` commands inside the test process: `FlagstaffCommand.execute` (ArgumentParser's
/// `parseAsRoot`, then `run`) with a ``CommandContext`` of its own, so parsing, validation, output and store
/// effects are tested without starting a process, and tests running side by side share nothing.
enum InProcessCLI {
    /// Runs a command line and captures its streams and status.
    ///
    /// The command runs on a thread of its own, not on a cooperative thread: `fetch` blocks its thread while
    /// async work finishes, and blocking a cooperative thread would starve the tests beside it.
    /// - Parameters:
    ///   - arguments: the arguments, without the program name.
    ///   - environment: the whole environment the command sees.
    ///   - standardInput: what `-` reads (empty when `nil`).
    /// - Returns: the status and captured output.
    static func run(_ arguments: [String], environment: [String: String], standardInput: Data?) async throws
        -> CLIResult
    {
        let capture = OutputCapture()
        let context = CommandContext(
            writeOutput: { capture.append($0, error: false) },
            writeError: { capture.append($0, error: true) },
            readInput: { standardInput ?? Data() },
            environment: environment)
        let status = try await offCooperativePool {
            CommandContext.$current.withValue(context) { FlagstaffCommand.execute(arguments) }
        }
        let (output, error) = capture.text
        return CLIResult(status: status, standardOutput: output, standardError: error)
    }
}

/// Standard output and error written by a command in process.
private final class OutputCapture: Sendable {
    private let streams = AnnotatedMutex<(output: String, error: String)>(("", ""))

    func append(_ text: String, error: Bool) {
        streams.withLock { streams in
            if error { streams.error += text } else { streams.output += text }
        }
    }

    var text: (output: String, error: String) {
        streams.withLock { $0 }
    }
}
