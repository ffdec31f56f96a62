/// A key press (or terminal event) after decoding, as the console's state machine sees it.
public enum ConsoleKey: Sendable, Hashable {
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
    /// The terminal changed size.
    case resize(width: Int, height: Int)
}
