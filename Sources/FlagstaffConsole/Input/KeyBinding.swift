/// One row of the console's key table: keys, the modes they act in, what they do, and how the help overlay,
/// the footer and docs/console.md describe them.
package struct KeyBinding: Sendable {
    /// The keys (any of them triggers the action).
    package let keys: [ConsoleKey]
    /// The modes in which the keys have this meaning.
    package let modes: Set<ConsoleMode>
    /// What the keys do.
    package let action: ConsoleAction
    /// The description in the help overlay and the docs' key table.
    package let help: String
    /// The footer item for the modes of this row (`{upDown}` and `{space}` stand for glyphs), or `nil`.
    package let footer: String?
    /// Whether the footer item stays when the footer is too narrow (the others are dropped from the end).
    package let footerKept: Bool

    /// Creates a row.
    package init(
        _ keys: [ConsoleKey], in modes: Set<ConsoleMode>, _ action: ConsoleAction, help: String, footer: String? = nil,
        kept: Bool = false
    ) {
        self.keys = keys
        self.modes = modes
        self.action = action
        self.help = help
        self.footer = footer
        self.footerKept = kept
    }

    /// The keys as written in the help overlay and the docs (`Up k Ctrl-P`).
    package var keyNames: String { keys.map(\.name).joined(separator: " ") }
}
