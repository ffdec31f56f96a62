/// What a key does: the right-hand side of a ``KeyBinding``. ``ConsoleState`` carries actions out.
package enum ConsoleAction: Sendable, Hashable {
    /// Move the cursor by rows.
    case move(by: Int)
    /// Move the cursor by a page or half a page, down or up.
    case movePage(half: Bool, down: Bool)
    /// First row.
    case first
    /// Last row.
    case last
    /// Collapse the selected group, or go to the enclosing group.
    case collapse
    /// Expand the selected group.
    case expand
    /// Collapse or expand the selected group; open the inline editor on a typed setting.
    case activate
    /// Edit the selected typed setting: a picker for choices, the external editor for JSON, else inline.
    case edit
    /// Start typing a search.
    case startSearch
    /// Keep the query and go back to the list.
    case keepSearch
    /// Clear the query and go back to the list.
    case cancelSearch
    /// Clear the query (in the list: only when there is one).
    case clearQuery
    /// Delete the query's last character.
    case deleteCharacter
    /// Next (`forward`) or previous scope.
    case cycleScope(forward: Bool)
    /// Set the selected flag's override.
    case force(on: Bool)
    /// Reset the selected flag's override.
    case reset
    /// Set the selected flag's override to the opposite of its value.
    case flip
    /// Ask whether to reset every override.
    case askResetAll
    /// Reset every override (the answer `y`).
    case confirmResetAll
    /// Show or hide the detail pane.
    case toggleDetail
    /// Open the help overlay.
    case openHelp
    /// Close the help overlay.
    case closeHelp
    /// Scroll the help overlay by entries.
    case scrollHelp(by: Int)
    /// Scroll the help overlay to its first entry.
    case scrollHelpToTop
    /// Repaint the whole screen.
    case redraw
    /// Ask the remote sources to fetch now.
    case refreshRemote
    /// Quit, through the restart prompt when it applies.
    case quit
    /// Restart prompt: restart now.
    case restartNow
    /// Restart prompt: quit keeping the changes.
    case restartLater
    /// Restart prompt: undo the restart-requiring changes and quit.
    case undoRestartChanges
    /// Restart prompt, unsaved question: stay in the console.
    case cancelQuit
    /// Unsaved question: quit now, leaving the writes still waiting for the store's lock unsaved.
    case quitWithoutSaving
    /// Editor: move the cursor or delete text.
    case editText(ValueEditor.Command)
    /// Editor, picker: store the value (when valid) and close.
    case commitEdit
    /// Editor, picker, invalid JSON question: close without writing anything.
    case cancelEdit
    /// Picker: move the selection.
    case movePicker(by: Int)
    /// Invalid JSON question: open the external editor again on the rejected text.
    case reopenEditor
    /// Mark or unmark the selected flag, then move down.
    case toggleMark
    /// Mark every listed flag.
    case markAllListed
    /// Clear the search, or, without one, the marks.
    case clearSearchOrMarks
    /// Bulk question: apply the change to the marked flags.
    case confirmBulkChange
    /// Undo, redo and the history overlay (``HistoryAction``).
    case history(HistoryAction)
    /// A profile picker key (open, move, merge/replace, apply, close).
    case profile(ProfileAction)
    /// An expiry menu key (open, move, choose, close).
    case expiry(ExpiryAction)
    /// The connected apps overlay (``AppsAction``).
    case apps(AppsAction)
}
