/// What the console is doing: which keys mean what, and which overlay is shown.
package enum ConsoleMode: Sendable, Hashable, CaseIterable {
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
    /// Quitting once the pending store writes are saved (y quits without them, Esc stays).
    case quitWhenSaved

    /// The mode's name in the key table of docs/console.md.
    package var name: String {
        switch self {
        case .list: "list"
        case .search: "search"
        case .help: "help"
        case .confirmReset: "reset question"
        case .restartPrompt: "restart prompt"
        case .quitWhenSaved: "unsaved question"
        }
    }
}
