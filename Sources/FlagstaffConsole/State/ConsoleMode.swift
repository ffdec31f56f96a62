/// What the console is doing: which keys mean what, and which overlay is shown.
public enum ConsoleMode: Sendable, Equatable {
    /// Moving through the list.
    case list
    /// Typing a search query (incremental).
    case search
    /// The help overlay is open.
    case help
    /// Asking whether to reset every override (y/n).
    case confirmReset
    /// Asking what to do about changes that need a restart (r/l/u/Esc).
    case restartPrompt
}
