/// The manifest schema: objects read field by field straight into the model types. `null` is "absent" for
/// every optional field (as `decodeIfPresent`); required fields (`name`, `key`, `provider`) must be strings.
/// Settings are read in `JSONReader+ManifestSetting.swift`.
extension JSONReader {
    /// The whole manifest (the top-level object).
    mutating func readManifest() throws(ReadFailure) -> RegistryManifest {
        skipWhitespace()
        var name: String?
        var manifest = RegistryManifest(name: "")
        try readMembers(ManifestFields.manifest, expected: "an object (the manifest)", unknown: .reject) {
            reader, field throws(ReadFailure) in
            switch field {
            case .name: name = try reader.readString()
            case .flags:
                manifest.flags =
                    try reader.readOptionalArray(of: "flags") { reader throws(ReadFailure) in try reader.readFlag() }
                    ?? []
            case .settings:
                manifest.settings =
                    try reader.readOptionalArray(of: "settings") { reader throws(ReadFailure) in
                        try reader.readSetting()
                    }
                    ?? []
            case .groups:
                manifest.groups =
                    try reader.readOptionalArray(of: "groups") { reader throws(ReadFailure) in try reader.readGroup() }
                    ?? []
            case .remote: manifest.remote = try reader.readNull() ? nil : try reader.readRemote()
            case .app: manifest.app = try reader.readNull() ? nil : try reader.readAppReport()
            }
        }
        guard let name else { throw missing("name") }
        manifest.name = name
        return manifest
    }

    /// A group and, recursively, its subgroups (bounded by the nesting limit).
    mutating func readGroup() throws(ReadFailure) -> RegistryManifest.Group {
        var key: String?
        var group = RegistryManifest.Group(key: "")
        try readMembers(ManifestFields.group, expected: "an object (a group)", unknown: .reject) {
            reader, field throws(ReadFailure) in
            switch field {
            case .key: key = try reader.readString()
            case .label: group.label = try reader.readOptionalString()
            case .description: group.description = try reader.readOptionalString()
            case .flags:
                group.flags =
                    try reader.readOptionalArray(of: "flags") { reader throws(ReadFailure) in try reader.readFlag() }
                    ?? []
            case .settings:
                group.settings =
                    try reader.readOptionalArray(of: "settings") { reader throws(ReadFailure) in
                        try reader.readSetting()
                    }
                    ?? []
            case .groups:
                group.groups =
                    try reader.readOptionalArray(of: "groups") { reader throws(ReadFailure) in try reader.readGroup() }
                    ?? []
            }
        }
        guard let key else { throw missing("key") }
        group.key = key
        return group
    }

    /// A flag (kept in locals and built at the end: this is the hot loop of a large manifest).
    mutating func readFlag() throws(ReadFailure) -> RegistryManifest.Flag {
        var key: String?
        var label: String?
        var description: String?
        var isOn = false
        var requiresRestart = false
        var kind = FeatureKind.static
        var enabledIn: [BuildTarget]?
        var remoteKey: String?
        let table = ManifestFields.flag
        try readMembers(table, expected: "an object (a flag)", unknown: .reject) { reader, field throws(ReadFailure) in
            switch field {
            case .key: key = try reader.readString()
            case .label: label = try reader.readOptionalString()
            case .description: description = try reader.readOptionalString()
            case .default: isOn = try reader.readOptionalBool() ?? false
            case .requiresRestart: requiresRestart = try reader.readOptionalBool() ?? false
            case .kind: kind = try reader.readNull() ? .static : try reader.readNamed(ManifestFields.kind, what: "kind")
            case .enabledIn:
                enabledIn = try reader.readOptionalArray(of: "build targets") { reader throws(ReadFailure) in
                    try reader.readNamed(ManifestFields.buildTarget, what: "build target")
                }
            case .remoteKey: remoteKey = try reader.readOptionalString()
            }
        }
        guard let key else { throw missing("key") }
        return RegistryManifest.Flag(
            key: key, label: label, description: description, default: isOn,
            requiresRestart: requiresRestart, kind: kind, enabledIn: enabledIn, remoteKey: remoteKey)
    }

    /// The remote-config provider section.
    mutating func readRemote() throws(ReadFailure) -> RegistryManifest.Remote {
        var provider: String?
        var remote = RegistryManifest.Remote(provider: "")
        try readMembers(ManifestFields.remote, expected: "an object (the remote-config provider)", unknown: .reject) {
            reader, field throws(ReadFailure) in
            switch field {
            case .provider: provider = try reader.readString()
            case .projectID: remote.projectID = try reader.readOptionalString()
            case .apiKey: remote.apiKey = try reader.readOptionalString()
            case .appID: remote.appID = try reader.readOptionalString()
            case .baseURL: remote.baseURL = try reader.readOptionalString()
            case .namespace: remote.namespace = try reader.readOptionalString()
            case .minimumFetchInterval:
                switch reader.byte {
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    remote.minimumFetchInterval = try reader.readNumber()
                case UInt8(ascii: "n"):
                    try reader.readLiteral("null")
                    remote.minimumFetchInterval = nil
                default: throw try reader.typeMismatch(expected: "a number of seconds")
                }
            case .defaults: remote.defaults = try reader.readDefaults()
            }
        }
        guard let provider else { throw missing("provider") }
        remote.provider = provider
        return remote
    }

    /// `remote.defaults`: remote-config keys to booleans, numbers or strings (`null` for the whole object is
    /// "none"; a repeated key is an error).
    private mutating func readDefaults() throws(ReadFailure) -> [String: RegistryManifest.DefaultValue] {
        if try readNull() { return [:] }
        guard byte == UInt8(ascii: "{") else {
            throw try typeMismatch(expected: "an object (remote-config keys and their defaults)")
        }
        try open()
        var defaults: [String: RegistryManifest.DefaultValue] = [:]
        var state = ObjectState()
        while let name = try nextFieldName(&state) {
            let key = name.string
            guard defaults[key] == nil else { throw Self.duplicateMember(key) }
            do throws(ReadFailure) {
                switch byte {
                case UInt8(ascii: "\""): defaults[key] = .string(try readStringToken().string)
                case UInt8(ascii: "t"), UInt8(ascii: "f"): defaults[key] = .bool(try readOptionalBool() ?? false)
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): defaults[key] = .number(try readNumber())
                default: throw try typeMismatch(expected: "a boolean, a number or a string")
                }
            } catch {
                throw error.inside(.field(key))
            }
        }
        return defaults
    }

    /// An array, or `null` for `nil`.
    @inline(__always)
    mutating func readOptionalArray<Element>(
        of what: String, _ element: (inout JSONReader) throws(ReadFailure) -> Element
    ) throws(ReadFailure) -> [Element]? {
        if byte == UInt8(ascii: "[") { return try readArray(element) }
        if try readNull() { return nil }
        throw try typeMismatch(expected: "an array of \(what)")
    }

    /// A kind or build-target name (matched as bytes against `names`); unknown names are errors listing the
    /// accepted ones.
    mutating func readNamed<Name>(_ names: FieldTable<Name>, what: String) throws(ReadFailure) -> Name {
        func accepted() -> String { names.keys.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") }
        guard byte == UInt8(ascii: "\"") else {
            throw try typeMismatch(expected: "a string (a \(what): one of \(accepted()))")
        }
        let start = offset
        let name = try readStringToken()
        if let index = names.index(of: name, readable: count - start - 1) { return names.keys[index] }
        throw ReadFailure(message: "unknown \(what) \(JSONText.quoted(name.string)) (expected one of: \(accepted()))")
    }

    func missing(_ field: String) -> ReadFailure {
        ReadFailure(message: "missing required field \"\(field)\"", path: [.field(field)])
    }
}

/// The field tables of the manifest's objects, and the names of its enumerations (built once).
enum ManifestFields {
    static let manifest = FieldTable(RegistryManifest.CodingKeys.self)
    static let group = FieldTable(RegistryManifest.Group.CodingKeys.self)
    static let flag = FieldTable(RegistryManifest.Flag.CodingKeys.self)
    static let setting = FieldTable(RegistryManifest.Setting.CodingKeys.self)
    static let settingType = FieldTable(SettingTypeName.self)
    static let remote = FieldTable(RegistryManifest.Remote.CodingKeys.self)
    static let kind = FieldTable(FeatureKind.self)
    static let buildTarget = FieldTable(BuildTarget.self)
}
