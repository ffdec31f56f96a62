import Flagstaff

/// What the console is doing — which keys mean what — with the data of the overlay or question it shows: an
/// overlay's state exists only while the overlay is shown, and closing it drops its state.
package enum ConsoleMode: Sendable, Equatable {
    /// Moving through the list.
    case list
    /// Typing a search query (incremental).
    case search
    /// The help overlay is open, scrolled to its `offset`-th line.
    case help(offset: Int)
    /// Asking whether to reset every override (y/n).
    case confirmReset
    /// Asking what to do about changes that need a restart (r/l/u/Esc).
    case restartPrompt(RestartPrompt)
    /// Quitting once the pending store writes are saved (y quits without them, Esc stays); then quitting with
    /// `choice` (the restart prompt's undo), or, when `nil`, as `q` does (through the restart prompt when it
    /// applies).
    case quitWhenSaved(then: RestartChoice?)
    /// Editing a typed setting's value on the footer line.
    case edit(ValueEditor)
    /// Choosing an enum setting's value in a list.
    case pick(ChoicePicker)
    /// An external editor's result was not a valid value: edit again or cancel.
    case editRejected(RejectedEdit)
    /// Asking whether to apply a change to more than 20 marked flags (y/n).
    case confirmBulk(BulkChange)
    /// The history overlay is open.
    case history(HistoryOverlay)
    /// The profile picker is open.
    case profiles(ProfilePicker)
    /// Typing the name to save the store's overrides under, in the profile picker (``ProfilePicker/name``).
    case profileName(ProfilePicker)
    /// Asking whether to delete the highlighted profile (y/n), in the profile picker.
    case profileDelete(ProfilePicker)
    /// The expiry menu of `t` is open.
    case expiry(ExpiryMenu)
    /// The connected apps overlay is open (`console --serve`).
    case apps(AppsOverlay)

    /// A mode without its data: what the key table (``KeyBindings``) binds keys in.
    package enum Kind: Sendable, Hashable, CaseIterable {
        case list, search, help, confirmReset, restartPrompt, quitWhenSaved, edit, pick, editRejected, confirmBulk
        case history, profiles, profileName, profileDelete, expiry, apps

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

    /// The mode without its data.
    package var kind: Kind {
        switch self {
        case .list: .list
        case .search: .search
        case .help: .help
        case .confirmReset: .confirmReset
        case .restartPrompt: .restartPrompt
        case .quitWhenSaved: .quitWhenSaved
        case .edit: .edit
        case .pick: .pick
        case .editRejected: .editRejected
        case .confirmBulk: .confirmBulk
        case .history: .history
        case .profiles: .profiles
        case .profileName: .profileName
        case .profileDelete: .profileDelete
        case .expiry: .expiry
        case .apps: .apps
        }
    }

    /// The mode's name in the key table of docs/console.md.
    package var name: String { kind.name }
}

/// The restart prompt: the flags it lists, and the overrides its undo (`u`) writes.
package struct RestartPrompt: Sendable, Equatable {
    /// The restart-requiring flags whose value differs from launch, old → new.
    package var changes: [PendingRestart]
    /// The overrides that put those flags back (see ``ConsoleState/undoOverrides(_:)``).
    package var undo: [String: OverrideEdit]
}
