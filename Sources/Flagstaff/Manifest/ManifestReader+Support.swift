/// Failures, paths, string tokens and field tables of `ManifestReader`.

/// Why the reader stopped: a message, the JSON path (collected innermost first while unwinding) and, for
/// syntax errors, the byte offset (reported as line and column).
struct ReadFailure: Error {
    var message: String
    var path: [PathComponent]
    var offset: Int?

    init(message: String, path: [PathComponent] = [], offset: Int? = nil) {
        self.message = message
        self.path = path
        self.offset = offset
    }

    /// The same failure one level further out.
    func inside(_ component: PathComponent) -> ReadFailure {
        var copy = self
        copy.path.append(component)
        return copy
    }

    /// `$.groups[0].flags[2].default`.
    var jsonPath: String {
        path.reversed().reduce(into: "$") { text, component in
            switch component {
            case .index(let index): text += "[\(index)]"
            case .field(let name): text += Self.isIdentifier(name) ? ".\(name)" : "[\(Self.quoted(name))]"
            }
        }
    }

    /// Field names that need no brackets in a path: ASCII letters, digits, `_` and `$`, not starting with a digit.
    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { value in
            (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || value == UInt8(ascii: "_") || value == UInt8(ascii: "$")
        }
    }

    /// A field name as a JSON string, control characters escaped.
    private static func quoted(_ name: String) -> String {
        var text = "\""
        for scalar in name.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

/// One step of a JSON path.
enum PathComponent {
    case field(String)
    case index(Int)
}

/// A JSON string as read: the bytes between the quotes when it had no escapes (already checked to be valid
/// UTF-8), or the decoded text.
enum StringToken {
    case raw(UnsafeBufferPointer<UInt8>)
    case decoded(String)

    var string: String {
        switch self {
        case .raw(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .decoded(let text): return text
        }
    }
}

/// The known fields of one object type, matched against field names without making strings.
struct FieldTable<Key: CaseIterable & RawRepresentable & Sendable>: Sendable where Key.RawValue == String {
    let keys: [Key]
    let names: [[UInt8]]
    /// `key, label, description` for "expected one of" messages.
    let list: String

    init(_ type: Key.Type) {
        keys = Array(Key.allCases)
        precondition(keys.count <= 64, "ObjectState tracks at most 64 fields")
        names = keys.map { Array($0.rawValue.utf8) }
        list = keys.map(\.rawValue).joined(separator: ", ")
    }

    @inline(__always) func index(of name: StringToken) -> Int? {
        switch name {
        case .raw(let bytes):
            return index(of: bytes)
        case .decoded(let text):
            var copy = text
            return copy.withUTF8 { index(of: $0) }
        }
    }

    func index(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let length = bytes.count
        for candidate in 0..<names.count where names[candidate].count == length {
            let matches = names[candidate].withUnsafeBufferPointer { name in
                var index = 0
                while index < length && name[index] == bytes[index] { index += 1 }
                return index == length
            }
            if matches { return candidate }
        }
        return nil
    }
}

/// The field tables of the manifest's objects (built once).
enum ManifestFields {
    static let manifest = FieldTable(RegistryManifest.CodingKeys.self)
    static let group = FieldTable(RegistryManifest.Group.CodingKeys.self)
    static let flag = FieldTable(RegistryManifest.Flag.CodingKeys.self)
    static let remote = FieldTable(RegistryManifest.Remote.CodingKeys.self)
}
