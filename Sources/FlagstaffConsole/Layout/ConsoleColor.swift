/// A foreground colour of a console cell; the background is always the terminal's own.
package enum ConsoleColor: Int, Sendable, Hashable, CaseIterable {
    /// The terminal's default foreground.
    case `default` = 0
    /// Effective value ON.
    case green = 1
    /// Effective value OFF.
    case red = 2
    /// The requires-restart marker and warnings.
    case yellow = 3
    /// Search-match highlight.
    case cyan = 4
    /// Remote-source information.
    case blue = 5
    /// Reserved for prompts.
    case magenta = 6
    /// Greyed-out rows (orphan overrides in the `Stale` scope): bright black, or white on 8-colour terminals.
    case grey = 7
}
