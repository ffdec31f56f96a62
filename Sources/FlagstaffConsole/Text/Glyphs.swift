/// The symbols the console draws, in a Unicode set and an ASCII fallback for terminals without UTF-8.
package struct Glyphs: Sendable {
    /// Expanded group marker (`▾` / `v`).
    package let expanded: String
    /// Collapsed group marker (`▸` / `>`).
    package let collapsed: String
    /// Requires-restart marker (`⟳` / `R`).
    package let restart: String
    /// Horizontal rule character (`─` / `-`).
    package let rule: String
    /// Separator between group path components (`→` / `>`).
    package let pathSeparator: String
    /// Separator in the header and detail pane (`·` / `|`).
    package let dot: String
    /// Arrow from the effective value to its sources (`←` / `<-`).
    package let leftArrow: String
    /// Arrow from an old value to a new one (`→` / `->`).
    package let rightArrow: String
    /// The search field's cursor (`▏` / `_`).
    package let cursor: String
    /// Dash between a key and its description (`—` / `-`).
    package let dash: String
    /// Up/down arrows in the footer (`↑↓` / `j/k`).
    package let upDown: String
    /// The space bar in the footer (`␣` / `Space`).
    package let space: String
    /// Ellipsis for truncated text (`…` / `~`).
    package let ellipsis: String
    /// Box corners, top-left, top-right, bottom-left, bottom-right (`┌┐└┘` / `++++`).
    package let corners: (String, String, String, String)
    /// Vertical box side (`│` / `|`).
    package let vertical: String
    /// The multiplication sign in sizes (`×` / `x`).
    package let times: String

    /// The Unicode glyphs of the spec's screen.
    package static let unicode = Glyphs(
        expanded: "▾", collapsed: "▸", restart: "⟳", rule: "─", pathSeparator: "→", dot: "·", leftArrow: "←",
        rightArrow: "→", cursor: "▏", dash: "—", upDown: "↑↓", space: "␣", ellipsis: "…",
        corners: ("┌", "┐", "└", "┘"), vertical: "│", times: "×"
    )

    /// Plain ASCII stand-ins, used when the locale is not UTF-8.
    package static let ascii = Glyphs(
        expanded: "v", collapsed: ">", restart: "R", rule: "-", pathSeparator: ">", dot: "|", leftArrow: "<-",
        rightArrow: "->", cursor: "_", dash: "-", upDown: "j/k", space: "Space", ellipsis: "~",
        corners: ("+", "+", "+", "+"), vertical: "|", times: "x"
    )
}
