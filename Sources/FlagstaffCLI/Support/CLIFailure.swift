/// A failure the command line reports as one message on standard error, with a specific exit status.
///
/// Commands throw it for every expected problem (bad manifest, corrupt store, unknown key…); the entry
/// point prints `flagstaff: error: <message>` and exits with ``status``.
struct CLIFailure: Error, CustomStringConvertible {
    /// What went wrong, naming the file, field or argument and what was expected.
    var message: String
    /// The exit status.
    var status: ExitStatus

    /// Creates a failure.
    init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    /// A problem with the command line itself (unknown key, bad value): exit status 2.
    static func usage(_ message: String) -> CLIFailure { CLIFailure(message, status: .usage) }

    /// A problem found while running (unreadable or invalid file, failed write): exit status 1.
    static func runtime(_ message: String) -> CLIFailure { CLIFailure(message, status: .runtimeError) }

    var description: String { message }
}

/// The exit statuses of `flagstaff`, documented in docs/cli.md.
enum ExitStatus: Int32 {
    /// Success.
    case ok = 0
    /// A runtime error: a file could not be read, parsed or written.
    case runtimeError = 1
    /// A usage error (bad argument, unknown key, bad value), or the console was started without a terminal.
    case usage = 2
    /// Flags that require a restart changed and the app was not restarted.
    case pendingRestart = 3
}
