import Flagstaff

/// One member of the registry as served: its key, effective value and where the value comes from, copied out of
/// the registry when a snapshot is taken, with the member itself for what never changes (description, type).
///
/// Kept small (a few words): a snapshot is one array of these, one per member.
package struct ServedFlag: Sendable {
    /// The store key (the Unleash toggle name and the OFREP flag key).
    package let key: String
    /// The effective value (`"on"`/`"off"` for flags).
    package let value: OverrideValue
    /// The member: its description and type are immutable, so they are read from it rather than copied.
    private let member: AnyFeature
    /// The winning source, an index into ``sourceNames``.
    private let sourceIndex: UInt8

    /// The short names of the sources (``ResolutionSource/displayName``), in the order of ``sourceIndex(_:)``.
    private static let sourceNames = [
        ResolutionSource.testOverride, .launch, .override, .remote(provider: "", fetchedAt: nil), .dynamic,
        .buildTarget(.debug), .static, .link(server: ""),
    ].map(\.displayName)

    /// Copies a registry member's effective value and its source.
    /// - Parameter feature: a flag or setting.
    package init(_ feature: AnyFeature) {
        let explanation = feature.explanation
        key = feature.key
        value = explanation.value
        member = feature
        sourceIndex = Self.sourceIndex(explanation.source)
    }

    /// The position of a source's name in ``sourceNames`` (exhaustive: a new source must be named here).
    private static func sourceIndex(_ source: ResolutionSource) -> UInt8 {
        switch source {
        case .testOverride: return 0
        case .launch: return 1
        case .override: return 2
        case .remote: return 3
        case .dynamic: return 4
        case .buildTarget: return 5
        case .static: return 6
        case .link: return 7
        }
    }

    /// Whether another copy of a member serves the same: same key, type, value and source.
    package func servesSame(as other: ServedFlag) -> Bool {
        key == other.key && sourceIndex == other.sourceIndex && value == other.value && type == other.type
    }

    /// The member's description, if any.
    package var description: String? { member.description }
    /// The member's value type (`.boolean` for flags).
    package var type: SettingType { member.settingType }
    /// The winning source's short name: `override`, `launch`, `remote`, `dynamic`, `build target`, `default`.
    package var source: String { Self.sourceNames[Int(sourceIndex)] }

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
