/// Errors that stop the console from starting.
///
/// A struct rather than an enum, so that a new kind of failure can be added without breaking code that handles
/// these errors: ask its properties (``isNotATerminal``, ``stream``, ``term``) instead of matching cases.
public struct ConsoleError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Equatable, Sendable {
        case notATerminal(stream: String)
        case terminalUnavailable(term: String)
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// Standard input or output is not a terminal (piped, redirected, or run from a script).
    public static func notATerminal(stream: String) -> ConsoleError { ConsoleError(.notATerminal(stream: stream)) }

    /// ncurses could not initialise the terminal (unknown or unsuitable `TERM`).
    public static func terminalUnavailable(term: String) -> ConsoleError {
        ConsoleError(.terminalUnavailable(term: term))
    }

    /// Whether standard input or output is not a terminal.
    public var isNotATerminal: Bool { stream != nil }

    /// The stream that is not a terminal (`standard input`, `standard output`), if that is the error.
    public var stream: String? {
        if case .notATerminal(let stream) = code { return stream }
        return nil
    }

    /// The `TERM` ncurses could not use, if that is the error.
    public var term: String? {
        if case .terminalUnavailable(let term) = code { return term }
        return nil
    }

    /// A message a user can act on.
    public var description: String {
        switch code {
        case .notATerminal(let stream):
            "the console needs a terminal, but \(stream) is not one; "
                + "use `flagstaff list`, `flagstaff get KEY` or `flagstaff set KEY on|off|default` from scripts"
        case .terminalUnavailable(let term):
            "cannot open the terminal (TERM=\(term.isEmpty ? "(unset)" : term)); set TERM to a terminal type "
                + "such as xterm-256color, or use `flagstaff list/get/set`"
        }
    }
}
