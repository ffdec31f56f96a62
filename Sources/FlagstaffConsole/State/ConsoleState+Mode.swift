/// The data of the overlay or question shown, read from the mode that holds it (`nil`, or empty, in another mode).
extension ConsoleState {
    /// The first help line shown (the help overlay scrolls when the terminal is short).
    package var helpOffset: Int {
        if case .help(let offset) = mode { offset } else { 0 }
    }

    /// The flags listed by the restart prompt.
    package var pendingRestarts: [PendingRestart] {
        if case .restartPrompt(let prompt) = mode { prompt.changes } else { [] }
    }

    /// While quitting waits for the writes: the restart choice to quit with once they are saved, or `nil` to quit
    /// as `q` does.
    package var quitChoiceAfterSave: RestartChoice? {
        if case .quitWhenSaved(let choice) = mode { choice } else { nil }
    }

    /// The inline editor.
    package var editor: ValueEditor? {
        if case .edit(let editor) = mode { editor } else { nil }
    }

    /// The choice picker of an enum setting.
    package var picker: ChoicePicker? {
        if case .pick(let picker) = mode { picker } else { nil }
    }

    /// The external editor's text that was not a valid value.
    package var rejectedEdit: RejectedEdit? {
        if case .editRejected(let rejected) = mode { rejected } else { nil }
    }

    /// The bulk change waiting for its y/n answer.
    package var pendingBulk: BulkChange? {
        if case .confirmBulk(let change) = mode { change } else { nil }
    }

    /// The history overlay.
    package var history: HistoryOverlay? {
        if case .history(let overlay) = mode { overlay } else { nil }
    }

    /// The profile picker (also while it asks for a name or whether to delete).
    package var profilePicker: ProfilePicker? {
        switch mode {
        case .profiles(let picker), .profileName(let picker), .profileDelete(let picker): picker
        default: nil
        }
    }

    /// The expiry menu.
    package var expiryMenu: ExpiryMenu? {
        if case .expiry(let menu) = mode { menu } else { nil }
    }

    /// The connected apps overlay.
    package var appsOverlay: AppsOverlay? {
        if case .apps(let overlay) = mode { overlay } else { nil }
    }
}
