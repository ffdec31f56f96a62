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
    /// Editing a typed setting's value on the footer line (``ConsoleState/editor``).
    case edit
    /// Choosing an enum setting's value in a list (``ConsoleState/picker``).
    case pick
    /// An external editor's result was not a valid value (``ConsoleState/rejectedEdit``): edit again or cancel.
    case editRejected
    /// Asking whether to apply a change to more than 20 marked flags (y/n; ``ConsoleState/pendingBulk``).
    case confirmBulk
    /// The history overlay is open (``ConsoleState/history``).
    case history
    /// The profile picker is open (``ConsoleState/profilePicker``).
    case profiles
    /// The expiry menu of `t` is open (``ConsoleState/expiryMenu``).
    case expiry
    /// Typing the name to save the store's overrides under, in the profile picker (``ProfilePicker/name``).
    case profileName
    /// Asking whether to delete the highlighted profile (y/n), in the profile picker.
    case profileDelete
    /// The connected apps overlay is open (``ConsoleState/appsOverlay``; `console --serve`).
    case apps

    /// The mode's name in the key table of docs/console.md.
    package var name: String {
        switch self {
        case .list: "list"
        case .search: "search"
        case .help: "help"
        case .confirmReset: "reset question"
        case .restartPrompt: "restart prompt"
        case .quitWhenSaved: "unsaved question"
        case .edit: "editor"
        case .pick: "picker"
        case .editRejected: "invalid JSON question"
        case .confirmBulk: "bulk question"
        case .history: "history"
        case .profiles: "profile picker"
        case .expiry: "expiry menu"
        case .profileName: "profile name"
        case .profileDelete: "delete question"
        case .apps: "apps"
        }
    }
}
