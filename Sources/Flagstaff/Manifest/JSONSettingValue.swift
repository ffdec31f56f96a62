import Foundation

/// Any JSON value, as a setting's value: `Setting<JSONSettingValue>` holds JSON whose shape no Swift type
/// describes (a manifest's `"type": "json"` setting is one).
///
/// ```swift
/// let limits = Setting(default: JSONSettingValue.object(["maxUploadSize": .number(10_485_760)]))
/// limits.value["maxUploadSize"]   // .number(10485760)
/// ```
///
/// Numbers are `Double`s, as in JavaScript: whole numbers are exact up to 2⁵³ in magnitude. A JSON `true` is
/// `.bool(true)`, never the number 1. Values are stored and shown as canonical compact JSON (object members
/// sorted by name), like every other `Codable` setting.
public enum JSONSettingValue: SettingValue, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONSettingValue])
    /// An object.
    case object([String: JSONSettingValue])

    /// The member `name` of an object, else `nil`.
    public subscript(name: String) -> JSONSettingValue? {
        if case .object(let members) = self { return members[name] }
        return nil
    }

    // MARK: SettingValue

    /// The value as canonical compact JSON.
    public static func storedValue(of value: JSONSettingValue) -> OverrideValue {
        var text = ""
        value.write(to: &text)
        return OverrideValue(canonical: text)
    }

    /// Any JSON value.
    /// - Throws: never for a stored value (stored values are JSON); the signature is the protocol's.
    public static func decode(stored value: OverrideValue) throws(SettingValueError) -> JSONSettingValue {
        do throws(SyntaxError) {
            return try JSONValue.read(Data(value.json.utf8))
        } catch {
            throw SettingValueError("not valid JSON")
        }
    }

    /// The value as an ``OverrideValue`` (canonical JSON).
    public var overrideValue: OverrideValue { Self.storedValue(of: self) }

    /// The JSON value an ``OverrideValue`` holds.
    /// - Parameter value: any stored value.
    public init(_ value: OverrideValue) {
        self = (try? Self.decode(stored: value)) ?? .null
    }

    private func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value): text += OverrideValue.numberText(value)
        case .string(let value): text += JSONText.quoted(value)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, name) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                text += JSONText.quoted(name) + ":"
                members[name]?.write(to: &text)
            }
            text += "}"
        }
    }

    /// What kind of JSON value this is, for messages: `null`, `a boolean`, `a number`, `a string`, `an array`,
    /// `an object`.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    // MARK: Codable

    /// Decodes any JSON value (`true` stays a boolean; numbers are `Double`s).
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONSettingValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONSettingValue.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: MemberName.self) {
            var members: [String: JSONSettingValue] = [:]
            for key in object.allKeys {
                members[key.stringValue] = try object.decode(JSONSettingValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    /// Encodes the JSON value.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: MemberName.self)
            for (name, value) in members { try container.encode(value, forKey: MemberName(stringValue: name)) }
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .bool(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .string(let value): try container.encode(value)
            default: try container.encodeNil()
            }
        }
    }

    private struct MemberName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
