import Flagstaff
import Foundation

/// What a change of one flag or setting says in the footer once it is saved (every action answers there).
extension ConsoleState {
    /// `Blue Text: OFF → ON`, `Blue Text reset: ON → OFF`, `Theme: system → dark`, `Max Items reset: 50 → 20`,
    /// `App Feature Config: maxUploadSize, themeColors changed` (a JSON object names the fields that changed).
    /// Unsanitised: the layout cleans messages as it draws them.
    /// - Parameters:
    ///   - flag: the flag or setting as shown before the change.
    ///   - value: the override written (`nil`: removed).
    static func changeNote(_ flag: ConsoleFlag, to value: OverrideValue?) -> String {
        let name = flag.label + (value == nil ? " reset" : "")
        guard let setting = flag.setting, !setting.isBoolean else {
            let old = flag.setting.map { $0.value == .on } ?? flag.value
            let new =
                value?.overrideState?.forcedValue
                ?? (flag.setting.map { $0.valueWithoutOverride == .on } ?? flag.defaultValue)
            let shown = { (on: Bool) in on ? "ON" : "OFF" }
            return name + ": " + (old == new ? shown(new) : shown(old) + " \u{2192} " + shown(new))
        }
        let old = setting.value
        let new = value ?? setting.valueWithoutOverride
        if setting.type == .json, let fields = changedFields(from: old, to: new) {
            let listed = fields.prefix(3).joined(separator: ", ")
            return name + ": " + listed + (fields.count > 3 ? " and \(fields.count - 3) more" : "") + " changed"
        }
        let shown = { (value: OverrideValue) in cut(setting.shownText(value), to: 30) }
        return name + ": " + (old == new ? shown(new) : shown(old) + " \u{2192} " + shown(new))
    }

    /// The top-level fields that differ between two JSON objects (sorted), or `nil` when either is not an object
    /// or none differs.
    private static func changedFields(from old: OverrideValue, to new: OverrideValue) -> [String]? {
        func object(_ value: OverrideValue) -> [String: Any]? {
            (try? JSONValue.readFoundation(Data(value.json.utf8))) as? [String: Any]
        }
        guard let before = object(old), let after = object(new) else { return nil }
        func canonical(_ field: Any?) -> Data? {
            field.flatMap { try? JSONSerialization.data(withJSONObject: ["v": $0], options: .sortedKeys) }
        }
        let fields = Set(before.keys).union(after.keys).filter { canonical(before[$0]) != canonical(after[$0]) }
        return fields.isEmpty ? nil : fields.sorted()
    }

    /// Takes a new status in; a remote source's failure the footer has not said yet (a new one, or another
    /// message) is said there with its whole message: the header has room for `failed` only, and the detail pane
    /// shows it only on a member bound to that source, if there is one.
    /// - Parameters:
    ///   - newStatus: the status read.
    ///   - afterRefresh: whether it was read as a `Ctrl-R` refresh ended: then every failure is said, and without
    ///     one the footer stops saying "Refreshing…".
    mutating func take(_ newStatus: ConsoleStatus, afterRefresh: Bool = false) {
        let previous = status
        status = newStatus
        let message = remoteFailureMessage(comparedWith: afterRefresh ? nil : previous)
        if let message {
            statusMessage = message
        } else if afterRefresh, statusMessage?.hasPrefix("Refreshing ") == true {
            statusMessage = nil
        }
    }

    /// `Firebase failed: HTTP 503 · Ctrl-R retries`: the remote sources (not a flag server) whose status is a
    /// failure it was not in `previous` (every failure when `previous` is `nil`), or `nil` when there is none.
    /// Unsanitised: the layout cleans messages as it draws them.
    func remoteFailureMessage(comparedWith previous: ConsoleStatus?) -> String? {
        let failures = status.remotes.compactMap { remote -> String? in
            guard !remote.isServer, case .failed(let message) = remote.status.state else { return nil }
            let known = previous?.remotes.contains { $0.name == remote.name && $0.status.state == remote.status.state }
            return known == true ? nil : remote.name + " failed: " + message
        }
        guard !failures.isEmpty else { return nil }
        let dot = " \(glyphs.dot) "
        return failures.joined(separator: dot) + dot + "Ctrl-R retries"
    }

    /// `text` cut to `limit` characters, ending with `…` when cut.
    private static func cut(_ text: String, to limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "\u{2026}"
    }
}
