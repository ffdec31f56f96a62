/// What a key does to the store's history: undo, redo, and the history overlay (`H`).
package enum HistoryAction: Sendable, Hashable {
    /// Undo (`redo` false) or redo the newest change of the store's history.
    case step(redo: Bool)
    /// Open the overlay.
    case open
    /// Close it.
    case close
    /// Move the selection by changes.
    case move(by: Int)
    /// Move the selection by a page, down or up.
    case page(down: Bool)
    /// Select the newest (`last` false) or the oldest change.
    case edge(last: Bool)
    /// Close it and select the selected change's flag.
    case jump
}

extension KeyBindings {
    /// The history overlay's keys (`u`, `U` and `H` in the list are in the list's table).
    static let historyOverlay: [KeyBinding] = [
        KeyBinding(
            [.up, .character("k"), .control("p")], in: [.history], .history(.move(by: -1)), help: "newer change",
            footer: "{upDown} move"),
        KeyBinding(
            [.down, .character("j"), .control("n")], in: [.history], .history(.move(by: 1)), help: "older change"),
        KeyBinding([.pageUp, .control("b")], in: [.history], .history(.page(down: false)), help: "page up"),
        KeyBinding([.pageDown, .control("f")], in: [.history], .history(.page(down: true)), help: "page down"),
        KeyBinding([.home, .character("g")], in: [.history], .history(.edge(last: false)), help: "newest change"),
        KeyBinding([.end, .character("G")], in: [.history], .history(.edge(last: true)), help: "oldest change"),
        KeyBinding(
            [.enter], in: [.history], .history(.jump), help: "close the history and select the change's flag",
            footer: "Enter go to flag", kept: true),
        KeyBinding(
            [.escape, .character("H"), .character("q")], in: [.history], .history(.close), help: "close the history",
            footer: "Esc close", kept: true),
    ]
}
