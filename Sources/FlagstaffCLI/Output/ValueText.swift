import Flagstaff

/// How the values of flags and typed settings read in text output.
///
/// Tables and messages (``shown(_:of:)``): `ON`/`OFF` for booleans, strings quoted as JSON (so an empty string
/// or trailing spaces stay visible), numbers, enum case names, compact JSON. Scripts (``plain(_:of:)``, what
/// `get` prints): `on`/`off`, the string itself, the number, the case name, compact JSON. Both are
/// terminal-safe.
enum ValueText {
    /// The value as tables and messages show it.
    /// - Parameters:
    ///   - value: a value of the member (its current value, a step of its chain, its override).
    ///   - member: the flag or setting, which says how to read the value.
    static func shown(_ value: OverrideValue, of member: AnyFeature) -> String {
        switch member.settingType {
        case .boolean:
            if let state = booleanState(value) { return SourceText.value(state) }
            return JSONOutput.terminalSafe(value.json)
        case .string:
            return value.stringValue.map(JSONOutput.quoted) ?? JSONOutput.terminalSafe(value.json)
        case .choice:
            return value.stringValue.map(TerminalText.safe) ?? JSONOutput.terminalSafe(value.json)
        case .integer, .double, .json:
            return JSONOutput.terminalSafe(value.json)
        }
    }

    /// The value as `get` prints it for scripts: `on`/`off`, the string itself (control characters escaped as in
    /// all text output), the number, the case name, compact JSON.
    /// - Parameters:
    ///   - value: a value of the member.
    ///   - member: the flag or setting.
    static func plain(_ value: OverrideValue, of member: AnyFeature) -> String {
        if member.settingType == .boolean, let state = booleanState(value) { return state ? "on" : "off" }
        if case .json = member.settingType { return JSONOutput.terminalSafe(value.json) }
        return TerminalText.safe(member.displayText(value))
    }

    /// What an override looks like after `set`, `reset` and `import`: `on`/`off` for flags (as stored),
    /// ``shown(_:of:)`` for settings, `default` for none.
    /// - Parameters:
    ///   - value: the override, or `nil` when there is none.
    ///   - member: the flag or setting.
    static func override(_ value: OverrideValue?, of member: AnyFeature) -> String {
        guard let value else { return "default" }
        if member is AnyFlag, let state = value.overrideState { return state.storageWord }
        return shown(value, of: member)
    }

    /// `text` cut to `columns` terminal columns, ending with `…` when cut.
    /// - Parameters:
    ///   - text: text already made safe.
    ///   - columns: the widest result, at least 2.
    static func cut(_ text: String, toColumns columns: Int) -> String {
        guard TerminalText.columns(text) > columns else { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = TerminalText.columns(String(character))
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// What the member accepts, for messages: `on or off`, `a whole number from 1 to 100`,
    /// `one of light, dark, system`, `JSON like the default, {"a":1}`.
    /// - Parameter member: the flag or setting.
    static func expectation(of member: AnyFeature) -> String {
        let range = member.valueRange.map { " from \($0.lower.json) to \($0.upper.json)" } ?? ""
        switch member.settingType {
        case .boolean: return "on or off"
        case .string: return "any text"
        case .integer: return "a whole number" + range
        case .double: return "a number" + range
        case .choice(let names): return "one of " + names.map(TerminalText.safe).joined(separator: ", ")
        case .json:
            return
                "JSON like the default, \(cut(JSONOutput.terminalSafe(member.declaredDefault.json), toColumns: 120)), or @FILE holding it"
        }
    }

    /// The flag state a boolean value stands for: `"on"`/`"off"` (as stored), or JSON `true`/`false`.
    static func booleanState(_ value: OverrideValue) -> Bool? {
        switch value.json {
        case #""on""#, "true": return true
        case #""off""#, "false": return false
        default: return nil
        }
    }
}
