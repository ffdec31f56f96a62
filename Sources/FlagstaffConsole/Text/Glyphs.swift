/// The symbols the console draws, in a Unicode set and an ASCII fallback for terminals without UTF-8.
public struct Glyphs: Sendable {
    /// Expanded group marker (`▾` / `v`).
    public let expanded: String
    /// Collapsed group marker (`▸` / `>`).
    public let collapsed: String
    /// Requires-restart marker (`⟳` / `R`).
    public let restart: String
    /// Horizontal rule character (`─` / `-`).
    public let rule: String
    /// Separator between group path components (`→` / `>`).
    public let pathSeparator: String
    /// Separator in the header and detail pane (`·` / `|`).
    public let dot: String
    /// Arrow from the effective value to its sources (`←` / `<-`).
    public let leftArrow: String
    /// Arrow from an old value to a new one (`→` / `->`).
    public let rightArrow: String
    /// The search field's cursor (`▏` / `_`).
    public let cursor: String
    /// Dash between a key and its description (`—` / `-`).
    public let dash: String
    /// Up/down arrows in the footer (`↑↓` / `j/k`).
    public let upDown: String
    /// The space bar in the footer (`␣` / `Space`).
    public let space: String
    /// Ellipsis for truncated text (`…` / `~`).
    public let ellipsis: String
    /// Box corners, top-left, top-right, bottom-left, bottom-right (`┌┐└┘` / `++++`).
    public let corners: (String, String, String, String)
    /// Vertical box side (`│` / `|`).
    public let vertical: String
    /// The multiplication sign in sizes (`×` / `x`).
    public let times: String

    /// The Unicode glyphs of the spec's screen.
    public static let unicode = Glyphs(
        expanded: "▾", collapsed: "▸", restart: "⟳", rule: "─", pathSeparator: "→", dot: "·", leftArrow: "←",
        rightArrow: "→", cursor: "▏", dash: "—", upDown: "↑↓", space: "␣", ellipsis: "…",
        corners: ("┌", "┐", "└", "┘"), vertical: "│", times: "×"
    )

    /// Plain ASCII stand-ins, used when the locale is not UTF-8.
    public static let ascii = Glyphs(
        expanded: "v", collapsed: ">", restart: "R", rule: "-", pathSeparator: ">", dot: "|", leftArrow: "<-",
        rightArrow: "->", cursor: "_", dash: "-", upDown: "j/k", space: "Space", ellipsis: "~",
        corners: ("+", "+", "+", "+"), vertical: "|", times: "x"
    )
}
