import Foundation

extension RegistryManifest {
    /// A typed setting (a ``Flagstaff/Setting``): a string, a number, one of some choices, a boolean or any JSON.
    ///
    /// ```json
    /// {"key": "maxItems", "type": "integer", "default": 20, "range": [1, 100], "remoteKey": "max_items"}
    /// {"key": "theme", "type": "choice", "choices": ["light", "dark", "system"], "default": "system"}
    /// {"key": "appFeatureConfig", "type": "json", "default": {"maxUploadSize": 10485760}}
    /// ```
    /// `key`, `type` and `default` are required; `choices` goes with type `choice` only, `range` with
    /// `integer` and `double` only. `remoteKey` binds the setting to that key of the manifest's remote
    /// provider (a setting without one has no remote value).
    package struct Setting: Codable, Sendable, Hashable {
        /// The full store key.
        package var key: String
        /// The display label (default: the last key component humanised).
        package var label: String?
        /// A human description.
        package var description: String?
        /// The type; a `.choice` type carries the choices.
        package var type: SettingType
        /// The default value, as JSON: a boolean, a string, a number, a choice's name, or any JSON value.
        package var `default`: JSONSettingValue
        /// For `integer` and `double` settings: the values allowed, bounds included.
        package var range: ClosedRange<Double>?
        /// Whether a change only takes effect after a restart.
        package var requiresRestart: Bool
        /// The key in the manifest's remote provider whose value the setting takes, if any.
        package var remoteKey: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case key, label, description, type, `default`, range, choices, requiresRestart, remoteKey
        }

        /// Creates a setting description.
        /// - Parameters:
        ///   - key: the full store key.
        ///   - label: the display label.
        ///   - description: a human description.
        ///   - type: the type (`.choice` with its choices).
        ///   - default: the default value as JSON.
        ///   - range: for number types, the values allowed.
        ///   - requiresRestart: whether a change only takes effect after a restart.
        ///   - remoteKey: the remote provider's key, if the setting takes a remote value.
        package init(
            key: String, label: String? = nil, description: String? = nil, type: SettingType,
            default: JSONSettingValue, range: ClosedRange<Double>? = nil, requiresRestart: Bool = false,
            remoteKey: String? = nil
        ) {
            self.key = key
            self.label = label
            self.description = description
            self.type = type
            self.default = `default`
            self.range = range
            self.requiresRestart = requiresRestart
            self.remoteKey = remoteKey
        }

        /// The choices of a `choice` setting, else empty.
        package var choices: [String] { type.choices }

        /// Decodes a setting by the rules of the manifest reader (the rest is checked by `RegistryManifest.decode`).
        /// - Throws: `DecodingError.dataCorrupted` at the JSON path of the value and with the message of `JSONReader`.
        package init(from decoder: any Decoder) throws {
            self = try JSONReader.decode(from: decoder) { reader throws(ReadFailure) in try reader.readSetting() }
        }

        /// Encodes the setting: `type` by name, `choices` for choice settings, absent optional fields left out.
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encodeIfPresent(label, forKey: .label)
            try container.encodeIfPresent(description, forKey: .description)
            try container.encode(type.name, forKey: .type)
            if case .choice(let names) = type { try container.encode(names, forKey: .choices) }
            try container.encode(self.default, forKey: .default)
            if let range { try container.encode([range.lowerBound, range.upperBound], forKey: .range) }
            try container.encode(requiresRestart, forKey: .requiresRestart)
            try container.encodeIfPresent(remoteKey, forKey: .remoteKey)
        }

        /// The first problem of the entry beyond its JSON shape, as the field to name and what was expected:
        /// a default not of the type, a range on a non-number or one the default lies outside, empty or
        /// repeated choices, an empty remote key.
        func problem() -> (field: String, message: String)? {
            if case .choice(let names) = type {
                if names.isEmpty {
                    return ("choices", "expected at least one choice (e.g. [\"light\", \"dark\", \"system\"])")
                }
                if names.count > 1 {
                    var seen: Set<String> = []
                    for name in names where !seen.insert(name).inserted {
                        return ("choices", "the choice \(JSONText.quoted(name)) is listed twice; each choice once")
                    }
                }
            }
            if let message = defaultProblem() { return ("default", message) }
            if let range {
                switch type {
                case .integer:
                    for bound in [range.lowerBound, range.upperBound] where !Self.isWholeNumber(bound) {
                        return (
                            "range",
                            "an integer setting's range needs whole numbers (at most 2^53 in magnitude), found \(Self.number(bound))"
                        )
                    }
                case .double:
                    break
                default:
                    return (
                        "range",
                        "a range needs a number setting (type \"integer\" or \"double\"); this setting's type is \"\(type.name)\""
                    )
                }
                if case .number(let value) = self.default, !range.contains(value) {
                    return (
                        "default",
                        "\(Self.number(value)) is outside the range \(Self.number(range.lowerBound))…\(Self.number(range.upperBound))"
                    )
                }
            }
            if let remoteKey, remoteKey.isEmpty {
                return ("remoteKey", "expected a non-empty remote key (or leave \"remoteKey\" out)")
            }
            return nil
        }

        private func defaultProblem() -> String? {
            // Built only for an error (this runs for every setting of a large manifest).
            var found: String { self.default.kindDescription }
            var typeNote: String { "(the setting's type is \"\(type.name)\")" }
            switch (type, self.default) {
            case (.boolean, .bool), (.string, .string), (.double, .number), (.json, _):
                return nil
            case (.integer, .number(let value)):
                return Self.isWholeNumber(value)
                    ? nil
                    : "expected a whole number (at most 2^53 in magnitude) \(typeNote), found \(Self.number(value))"
            case (.choice(let names), .string(let name)):
                guard names.contains(name) else {
                    return
                        "\(JSONText.quoted(name)) is not one of the choices (\(names.map { JSONText.quoted($0) }.joined(separator: ", ")))"
                }
                return nil
            case (.boolean, _): return "expected a boolean (true or false) \(typeNote), found \(found)"
            case (.string, _): return "expected a string \(typeNote), found \(found)"
            case (.integer, _): return "expected a whole number \(typeNote), found \(found)"
            case (.double, _): return "expected a number \(typeNote), found \(found)"
            case (.choice, _): return "expected a string naming one of the choices \(typeNote), found \(found)"
            }
        }

        /// Whole numbers a `Double` holds exactly (|x| ≤ 2⁵³), so they convert to `Int` without loss.
        static func isWholeNumber(_ value: Double) -> Bool {
            value == value.rounded() && abs(value) <= 9_007_199_254_740_992
        }

        /// A number as a message shows it: `20`, `0.5`.
        static func number(_ value: Double) -> String { OverrideValue.numberText(value) }
    }
}

/// The names of setting types in a manifest's `"type"` field.
enum SettingTypeName: String, CaseIterable, Sendable {
    case boolean, string, integer, double, choice, json

    /// The type, with `choices` for `choice`.
    func settingType(choices: [String]) -> SettingType {
        switch self {
        case .boolean: return .boolean
        case .string: return .string
        case .integer: return .integer
        case .double: return .double
        case .choice: return .choice(choices)
        case .json: return .json
        }
    }

    static let accepted = allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    static func unknownMessage(_ name: String) -> String {
        "unknown setting type \(JSONText.quoted(name)) (expected one of: \(accepted))"
    }

    /// Why `choices` does or does not go with the type, or `nil` when it fits.
    static func choicesProblem(_ type: SettingTypeName, hasChoices: Bool) -> String? {
        if type == .choice && !hasChoices {
            return "a \"choice\" setting needs \"choices\": the allowed values, e.g. [\"light\", \"dark\", \"system\"]"
        }
        if type != .choice && hasChoices {
            return "\"choices\" go with \"type\": \"choice\"; this setting's type is \"\(type.rawValue)\""
        }
        return nil
    }

    static let rangeShape = "expected an array of two numbers: [lowest, highest]"

    /// Why two bounds do not make a range, or `nil`.
    static func boundsProblem(_ lower: Double, _ upper: Double) -> String? {
        guard lower <= upper else {
            return
                "the lowest value \(OverrideValue.numberText(lower)) is above the highest \(OverrideValue.numberText(upper)); write [lowest, highest]"
        }
        return nil
    }
}
