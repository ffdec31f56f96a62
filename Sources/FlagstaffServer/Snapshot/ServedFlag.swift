import Flagstaff

/// One member of the registry as served: its key, description, type, effective value and where the value
/// comes from, copied out of the registry when a snapshot is taken.
package struct ServedFlag: Sendable, Hashable {
    /// The store key (the Unleash toggle name and the OFREP flag key).
    package var key: String
    /// The member's description, if any.
    package var description: String?
    /// The member's value type (`.boolean` for flags).
    package var type: SettingType
    /// The effective value (`"on"`/`"off"` for flags).
    package var value: OverrideValue
    /// The winning source's short name: `override`, `launch`, `remote`, `dynamic`, `build target`, `default`.
    package var source: String

    /// Creates a served member.
    package init(key: String, description: String?, type: SettingType, value: OverrideValue, source: String) {
        self.key = key
        self.description = description
        self.type = type
        self.value = value
        self.source = source
    }

    /// Copies a registry member's effective value and its source.
    /// - Parameter feature: a flag or setting.
    package init(_ feature: AnyFeature) {
        let explanation = feature.explanation
        self.init(
            key: feature.key, description: feature.description, type: feature.settingType,
            value: explanation.value, source: explanation.source.displayName)
    }

    /// Whether the member is an on/off value (flags and `Setting<Bool>`).
    package var isBoolean: Bool { type == .boolean }

    /// The boolean value: `true` for `"on"` or `true`, else `false`.
    package var booleanValue: Bool { value == .on || value.json == "true" }

    /// The value as JSON for OFREP: `true`/`false` for on/off values, numbers of a `double` member always with a
    /// fraction or an exponent (so that clients read a float, not an integer), other values as stored.
    package var jsonValue: String {
        if isBoolean { return booleanValue ? "true" : "false" }
        if type == .double, !value.json.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }),
            value.json.first.map({ $0 == "-" || $0.isNumber }) == true
        {
            return value.json + ".0"
        }
        return value.json
    }

    /// The value as the text of an Unleash variant payload: the string itself for strings and choices, the
    /// number's text, compact JSON for JSON values.
    package var payloadText: String {
        if let string = value.stringValue, type != .json { return string }
        return jsonValue
    }

    /// The Unleash payload type: `string` for strings and choices, `number` for numbers, `json` for JSON values.
    package var payloadType: String {
        switch type {
        case .integer, .double: return "number"
        case .json: return "json"
        default: return "string"
        }
    }
}
