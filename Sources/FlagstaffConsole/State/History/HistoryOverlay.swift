import Flagstaff

/// The store's change history as the console read it for the overlay (`H`).
package struct HistoryContents: Sendable, Equatable {
    /// The changes, newest first.
    package var changes: [HistoryChange]
    /// The journal lines that could not be read (`file:line: reason`), oldest first.
    package var problems: [String]
    /// Why there is no history to show (the store keeps none, or it cannot be read), or `nil`.
    package var unavailable: String?

    /// Creates the contents.
    package init(changes: [HistoryChange], problems: [String] = [], unavailable: String? = nil) {
        self.changes = changes
        self.problems = problems
        self.unavailable = unavailable
    }
}

/// The history overlay: its contents and which change is selected.
package struct HistoryOverlay: Sendable, Equatable {
    /// What is shown.
    package var contents: HistoryContents
    /// The index of the selected change in ``HistoryContents/changes``.
    package var selected = 0
    /// The index of the first change shown.
    package var offset = 0

    /// Moves the selection by `delta` changes (clamped), scrolling to keep it among the `visible` ones shown.
    package mutating func move(by delta: Int, visible: Int) {
        selected = min(max(0, selected + delta), max(0, contents.changes.count - 1))
        if selected < offset { offset = selected }
        if selected >= offset + visible { offset = selected - visible + 1 }
    }
}

/// The result of an undo or a redo asked for from the console.
package enum HistoryStep: Sendable, Equatable {
    /// The change `change` was undone (`redo` false) or redone.
    case done(redo: Bool, change: HistoryChange)
    /// Nothing was changed: there was nothing to do, or a later change is in the way (`reason` says which).
    case refused(redo: Bool, reason: String)
}
