/// A key press after decoding, as the console's state machine sees it.
package enum ConsoleKey: Sendable, Hashable {
    /// Arrow up.
    case up
    /// Arrow down.
    case down
    /// Arrow left.
    case left
    /// Arrow right.
    case right
    /// Page up.
    case pageUp
    /// Page down.
    case pageDown
    /// Home.
    case home
    /// End.
    case end
    /// Tab.
    case tab
    /// Shift-Tab (back-tab).
    case backTab
    /// A bare Escape.
    case escape
    /// Enter / Return.
    case enter
    /// Backspace.
    case backspace
    /// Delete (forward delete).
    case delete
    /// Function key F1.
    case f1
    /// A control chord, identified by its lowercase letter (`Ctrl-C` is `.control("c")`).
    case control(Character)
    /// A printable character.
    case character(Character)

    /// How the key is written in the help overlay, the key table and docs/console.md (`Up`, `Ctrl-P`, `k`).
    package var name: String {
        switch self {
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .escape: "Esc"
        case .enter: "Enter"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .f1: "F1"
        case .control(let letter): "Ctrl-" + letter.uppercased()
        case .character(" "): "Space"
        case .character(let character): String(character)
        }
    }
}
