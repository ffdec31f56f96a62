/// Errors that stop the console from starting.
public enum ConsoleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Standard input or output is not a terminal (piped, redirected, or run from a script).
    case notATerminal(stream: String)
    /// ncurses could not initialise the terminal (unknown or unsuitable `TERM`).
    case terminalUnavailable(term: String)

    /// A message a user can act on.
    public var description: String {
        switch self {
        case .notATerminal(let stream):
            "the console needs a terminal, but \(stream) is not one; "
                + "use `flagstaff list`, `flagstaff get KEY` or `flagstaff set KEY on|off|default` from scripts"
        case .terminalUnavailable(let term):
            "cannot open the terminal (TERM=\(term.isEmpty ? "(unset)" : term)); set TERM to a terminal type "
                + "such as xterm-256color, or use `flagstaff list/get/set`"
        }
    }
}
