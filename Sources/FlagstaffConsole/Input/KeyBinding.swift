/// One row of the console's key table: keys, the modes they act in, what they do, and how the help overlay,
/// the footer and docs/console.md describe them.
package struct KeyBinding: Sendable {
    /// The keys (any of them triggers the action).
    package let keys: [ConsoleKey]
    /// The modes in which the keys have this meaning.
    package let modes: Set<ConsoleMode.Kind>
    /// What the keys do.
    package let action: ConsoleAction
    /// The description in the help overlay and the docs' key table.
    package let help: String
    /// The footer item for the modes of this row (`{upDown}` and `{space}` stand for glyphs), or `nil`.
    package let footer: String?
    /// How long the footer item stays when the footer is too narrow: items are dropped highest number first
    /// (the later one of equals first); `0` is never dropped.
    package let footerPriority: Int
    /// When the footer item is shown (the key does something on the selected row).
    package let footerCondition: FooterCondition

    /// Creates a row.
    /// - Parameters:
    ///   - kept: the footer item is never dropped (priority 0).
    ///   - priority: the footer item's priority when not `kept` (default 9, dropped first).
    ///   - when: when the footer item is shown.
    package init(
        _ keys: [ConsoleKey], in modes: Set<ConsoleMode.Kind>, _ action: ConsoleAction, help: String,
        footer: String? = nil,
        kept: Bool = false, priority: Int = 9, when condition: FooterCondition = .always
    ) {
        self.keys = keys
        self.modes = modes
        self.action = action
        self.help = help
        self.footer = footer
        self.footerPriority = kept ? 0 : priority
        self.footerCondition = condition
    }

    /// The keys as written in the help overlay and the docs (`Up k Ctrl-P`).
    package var keyNames: String { keys.map(\.name).joined(separator: " ") }
}

/// When a key's footer item is shown: only where the key does something, judged from the selected row and the
/// marks (see ``KeyBinding/footerCondition``).
package enum FooterCondition: Sendable {
    /// In every state of its modes.
    case always
    /// On a flag or an on/off setting, or while flags are marked (`o`, `x` act on them).
    case onOnOff
    /// On a flag or an on/off setting (`Space`).
    case onFlippable
    /// On a typed setting other than on/off (`e`).
    case onSetting
    /// On a row with an override, or while flags are marked (`r`).
    case onOverride
    /// On a flag or setting with an override (`t`).
    case onOverrideOnly
    /// On a flag or setting row, not a group (`m`).
    case onMember
    /// While a flag server runs beside the console (`console --serve`: `A`).
    case withServer
}
