#if canImport(Glibc)
import Glibc

private let writeBytes = Glibc.write
#elseif canImport(Darwin)
import Darwin

private let writeBytes = Darwin.write
#endif

/// Where the command line writes: standard output for results, standard error for diagnostics, both those of
/// the current ``CommandContext``.
///
/// Everything that may contain text from a file or a server goes through ``TerminalText`` (text) or
/// ``JSONOutput`` (JSON) before it gets here.
enum StandardStreams {
    /// Writes a line to standard output.
    /// - Parameter line: already-sanitised text.
    static func out(_ line: String) {
        CommandContext.current.writeOutput(line + "\n")
    }

    /// Writes lines to standard output as they are (a large chunk of rows at once).
    /// - Parameter text: already-sanitised text, ending with a line feed.
    static func write(_ text: String) {
        CommandContext.current.writeOutput(text)
    }

    /// Writes a line to standard error, unbuffered.
    /// - Parameter line: already-sanitised text.
    static func err(_ line: String) {
        CommandContext.current.writeError(line + "\n")
    }

    /// Writes `flagstaff: error: <message>` to standard error: the one format of every error.
    /// - Parameter message: the message; each line is sanitised and very long words cut here
    ///   (``TerminalText/diagnostic(_:)``).
    static func error(_ message: String) {
        err(
            "flagstaff: error: "
                + message.split(separator: "\n", omittingEmptySubsequences: false)
                .map { TerminalText.diagnostic(String($0)) }.joined(separator: "\n"))
    }

    /// Writes `flagstaff: note: <message>` to standard error.
    /// - Parameter message: the message; sanitised and very long words cut here.
    static func note(_ message: String) {
        err("flagstaff: note: " + TerminalText.diagnostic(message))
    }

    /// Writes text to the process's standard error, unbuffered, ignoring failures: a closed or broken standard error
    /// must not stop a command (`FileHandle`'s `write` traps on them).
    static func writeStandardError(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var offset = 0
            while offset < bytes.count {
                let written = writeBytes(STDERR_FILENO, base + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
