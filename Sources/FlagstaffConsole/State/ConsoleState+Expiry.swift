import Flagstaff
import Foundation

/// The expiry menu of `t`: when the selected override stops applying.
package struct ExpiryMenu: Sendable, Equatable {
    /// One choice: its label and the time from now, or `nil` for "never".
    package struct Choice: Sendable, Equatable {
        /// The label (`1 hour`).
        package var label: String
        /// Seconds from now, or `nil` for a permanent override.
        package var interval: TimeInterval?
    }

    /// The choices `t` offers.
    package static let choices = [
        Choice(label: "1 hour", interval: 3600), Choice(label: "1 day", interval: 86_400),
        Choice(label: "1 week", interval: 604_800), Choice(label: "never", interval: nil),
    ]

    /// The store key of the override.
    package var key: String
    /// The flag's or setting's label (unsanitised).
    package var label: String
    /// The override's value (set again with the chosen expiry).
    package var value: OverrideValue
    /// The index of the highlighted choice.
    package var selected: Int
    /// The override's current expiry, if it has one.
    package var current: OverrideExpiry?
}

/// What the expiry menu's keys do (``ConsoleAction/expiry(_:)``).
package enum ExpiryAction: Sendable, Hashable {
    /// Open the menu on the selected override.
    case open
    /// Move the highlight.
    case move(by: Int)
    /// Set the highlighted expiry and close.
    case choose
    /// Close without changing anything.
    case close
}

extension ConsoleState {
    /// Carries out an expiry menu key.
    mutating func perform(_ action: ExpiryAction) -> [ConsoleEffect] {
        switch action {
        case .open:
            guard let flag = selectedFlag else {
                statusMessage = "Select an overridden flag or setting to set when its override expires"
                return []
            }
            guard let value = flag.overrideValue else {
                statusMessage = "\(flag.key) has no override: force or edit it first, then t sets when it expires"
                return []
            }
            mode = .expiry(
                ExpiryMenu(key: flag.key, label: flag.label, value: value, selected: 0, current: flag.expiry))
        case .move(let delta):
            guard case .expiry(var menu) = mode else { return [] }
            menu.selected = min(max(0, menu.selected + delta), ExpiryMenu.choices.count - 1)
            mode = .expiry(menu)
        case .choose:
            guard let menu = expiryMenu else { return [] }
            closeExpiryMenu()
            let choice = ExpiryMenu.choices[menu.selected]
            statusMessage =
                choice.interval == nil
                ? "\(menu.key): the override no longer expires" : "\(menu.key): the override expires in \(choice.label)"
            return write(.values([menu.key: .set(menu.value)], expiresIn: choice.interval))
        case .close:
            closeExpiryMenu()
        }
        return []
    }

    private mutating func closeExpiryMenu() {
        mode = .list
    }

    /// Whether a visible row (or the selected one, in the detail pane) shows an override's time left or an expired
    /// override: then the screen is redrawn each second so the time left counts down.
    func showsExpiry() -> Bool {
        let end = min(rows.count, scrollOffset + listHeight)
        guard scrollOffset < end else { return false }
        for index in scrollOffset..<end {
            guard let key = rows[index].key else { continue }
            if let flag = flag(forKey: key), flag.expiry != nil || flag.expiredOverride != nil { return true }
        }
        return false
    }
}
