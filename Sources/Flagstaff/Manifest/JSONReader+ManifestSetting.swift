/// Typed settings: the setting object, its `range` and its `default` (any JSON value). What fits together
/// (the default and the type, the range and the type) is checked by `RegistryManifest.validate`, so the
/// `Decodable` path and this reader report the same errors.
extension JSONReader {
    /// A setting. Its `type` and `choices` are checked together here (the model keeps the choices in the type).
    mutating func readSetting() throws(ReadFailure) -> RegistryManifest.Setting {
        var key: String?
        var label: String?
        var description: String?
        var typeName: SettingTypeName?
        var defaultValue: JSONSettingValue?
        var range: ClosedRange<Double>?
        var choices: [String]?
        var requiresRestart = false
        var remoteKey: String?
        try readMembers(ManifestFields.setting, expected: "an object (a setting)", unknown: .reject) {
            reader, field throws(ReadFailure) in
            switch field {
            case .key: key = try reader.readString()
            case .label: label = try reader.readOptionalString()
            case .description: description = try reader.readOptionalString()
            case .type: typeName = try reader.readNamed(ManifestFields.settingType, what: "setting type")
            // `null` is a value here (a JSON setting may default to null), not an absent field.
            case .default: defaultValue = try reader.readJSONValue()
            case .range: range = try reader.readRange()
            case .choices:
                choices = try reader.readOptionalArray(of: "strings (the choices)") { reader throws(ReadFailure) in
                    try reader.readString()
                }
            case .requiresRestart: requiresRestart = try reader.readOptionalBool() ?? false
            case .remoteKey: remoteKey = try reader.readOptionalString()
            }
        }
        guard let key else { throw missing("key") }
        guard let typeName else {
            throw ReadFailure(
                message: "missing required field \"type\" (one of: \(SettingTypeName.accepted))", path: [.field("type")]
            )
        }
        if let problem = SettingTypeName.choicesProblem(typeName, hasChoices: choices != nil) {
            throw ReadFailure(message: problem, path: [.field("choices")])
        }
        guard let defaultValue else {
            throw ReadFailure(
                message: "missing required field \"default\" (the value when nothing overrides the setting)",
                path: [.field("default")])
        }
        return RegistryManifest.Setting(
            key: key, label: label, description: description, type: typeName.settingType(choices: choices ?? []),
            default: defaultValue, range: range, requiresRestart: requiresRestart, remoteKey: remoteKey)
    }

    /// `[lowest, highest]`, or `null` for none.
    private mutating func readRange() throws(ReadFailure) -> ClosedRange<Double>? {
        if try readNull() { return nil }
        guard byte == UInt8(ascii: "[") else {
            throw try typeMismatch(expected: String(SettingTypeName.rangeShape.dropFirst("expected ".count)))
        }
        let bounds = try readArray { reader throws(ReadFailure) -> Double in
            switch reader.byte {
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try reader.readNumber()
            default: throw try reader.typeMismatch(expected: "a number")
            }
        }
        guard bounds.count == 2 else {
            throw ReadFailure(
                message: "\(SettingTypeName.rangeShape), found \(bounds.count) element\(bounds.count == 1 ? "" : "s")")
        }
        if let problem = SettingTypeName.boundsProblem(bounds[0], bounds[1]) { throw ReadFailure(message: problem) }
        return bounds[0]...bounds[1]
    }
}
