import Foundation

/// What a command reads and writes outside itself: standard output and error, standard input and the
/// environment.
///
/// Commands reach them only through ``current`` (``StandardStreams`` writes there, ``RegistryLoader`` reads the
/// environment there), which is the process's own unless a caller binds another for the duration of a call:
///
/// ```swift
/// let status = CommandContext.$current.withValue(context) { FlagstaffCommand.execute(["list", "--json"]) }
/// ```
///
/// That is how the tests run commands in process, in parallel, each with its own streams and environment.
/// What only a process has (exit, terminals, signals, the log handler, the console) is not covered.
struct CommandContext: Sendable {
    /// Writes text to standard output: one or more lines, each ending with a line feed.
    var writeOutput: @Sendable (String) -> Void
    /// Writes text to standard error: one or more lines, each ending with a line feed.
    var writeError: @Sendable (String) -> Void
    /// Reads standard input to its end (the process's: at most ``InputFile/maximumBytes`` and one more).
    var readInput: @Sendable () throws(InputFile.ReadError) -> Data
    /// The environment variables (`FLAGSTAFF_MANIFEST`, `FLAGSTAFF_STORE`).
    var environment: [String: String]

    /// The process's streams and environment. Standard output is buffered (flushed at exit); standard error
    /// is not.
    static let process = CommandContext(
        writeOutput: { text in print(text, terminator: "") },
        writeError: { text in StandardStreams.writeStandardError(text) },
        readInput: { () throws(InputFile.ReadError) -> Data in try InputFile.readStandardInput() },
        environment: ProcessInfo.processInfo.environment)

    /// The context of the running command.
    @TaskLocal static var current: CommandContext = .process
}
