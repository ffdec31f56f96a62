import Flagstaff

/// What the console shows and edits about a typed setting (a `Setting<Value>`), read at one moment: values as
/// JSON (``OverrideValue``), turned into text and parsed back by the setting itself.
package struct ConsoleSetting: Sendable, Equatable {
    /// The kind of value (string, integer, double, choice, JSON; boolean for `Setting<Bool>`).
    package var type: SettingType
    /// The bounds of a number setting declared with a range.
    package var range: ValueRange?
    /// The effective value, its source and every source considered.
    package var explanation: ValueResolution
    /// The local override, or `nil`.
    package var override: OverrideValue?
    /// The value without the local override (remote or default): what a reset gives.
    package var valueWithoutOverride: OverrideValue
    /// The value at launch.
    package var launchValue: OverrideValue
    /// The member, for turning values into text and text into values (compared by identity: the one live
    /// reference a read flag keeps, since parsing needs the setting's own type).
    package let member: AnyFeature

    /// Reads a member's value facts now.
    /// - Parameter member: a typed setting.
    package init(_ member: AnyFeature) {
        self.member = member
        type = member.settingType
        range = member.valueRange
        explanation = member.explanation
        override = member.overrideValue
        valueWithoutOverride = member.valueWithoutOverride
        launchValue = member.launchStoredValue
    }

    /// The effective value.
    package var value: OverrideValue { explanation.value }

    /// Two readings are equal when they read the same member and saw the same values.
    package static func == (lhs: ConsoleSetting, rhs: ConsoleSetting) -> Bool {
        lhs.member === rhs.member && lhs.type == rhs.type && lhs.range == rhs.range
            && lhs.explanation == rhs.explanation && lhs.override == rhs.override
            && lhs.valueWithoutOverride == rhs.valueWithoutOverride && lhs.launchValue == rhs.launchValue
    }

    /// Whether the value is on/off (`Setting<Bool>`): shown as ON/OFF, and `o`, `x` and `Space` set it.
    package var isBoolean: Bool { type == .boolean }

    /// A value as a person reads it (unsanitised): the string itself, a number, a case name, compact JSON.
    package func text(_ value: OverrideValue) -> String { member.displayText(value) }

    /// A value as the list and the detail pane show it (unsanitised): strings in quotes, everything else as
    /// ``text(_:)``.
    package func shownText(_ value: OverrideValue) -> String {
        type == .string ? "\"" + text(value) + "\"" : text(value)
    }

    /// Parses and validates text typed by a person.
    /// - Throws: ``SettingValueError`` saying what was expected (`must be 1…100`).
    package func parse(_ text: String) throws(SettingValueError) -> OverrideValue { try member.parse(text) }

    /// What the value may be, in words: `1…100`, `one of light, dark, system`, or `nil` when anything of the
    /// type goes.
    package var allowedValues: String? {
        if let range { return text(range.lower) + "\u{2026}" + text(range.upper) }
        if !type.choices.isEmpty { return "one of " + type.choices.joined(separator: ", ") }
        return nil
    }

    /// The choice after the current one (wrapping), for an enum setting; `nil` for other types.
    package var nextChoice: OverrideValue? {
        let choices = type.choices
        guard !choices.isEmpty else { return nil }
        let current = value.stringValue.flatMap { choices.firstIndex(of: $0) } ?? -1
        return OverrideValue(string: choices[(current + 1) % choices.count])
    }
}
