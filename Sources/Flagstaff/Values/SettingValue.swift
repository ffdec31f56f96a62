import Foundation

/// A type a ``Setting`` can hold. Opt in by declaring the conformance; there is nothing to implement.
///
/// `String`, `Int`, `Double` and `Bool` conform out of the box. An enum with `String` raw values that is
/// `CaseIterable` and `Codable` conforms by declaring it, and offers its cases as choices. Any other
/// `Codable & Equatable & Sendable` type conforms by declaring it, and is edited as JSON.
///
/// ```swift
/// enum Theme: String, CaseIterable, Codable, Sendable, SettingValue { case light, dark, system }
/// struct UploadLimits: Codable, Equatable, Sendable, SettingValue { var maxBytes: Int }
/// ```
public protocol SettingValue: Codable, Equatable, Sendable {
    /// How values of this type are shown, edited and validated (default: ``SettingType/json``; choices for
    /// `String`-backed `CaseIterable` enums).
    static var settingType: SettingType { get }

    /// The value as stored in an override file.
    static func storedValue(of value: Self) -> OverrideValue

    /// A value read from an override file.
    /// - Throws: ``SettingValueError`` saying what was expected.
    static func decode(stored value: OverrideValue) throws(SettingValueError) -> Self

    /// A value typed by a person (the console's editor, `flagstaff set KEY VALUE`).
    /// - Throws: ``SettingValueError`` saying what was expected.
    static func parse(text: String) throws(SettingValueError) -> Self

    /// A value delivered as text by a remote-config service (a Firebase parameter, an Unleash variant
    /// payload), or `nil` when the text is not a value of this type.
    static func decode(remoteText: String) -> Self?

    /// The value as shown to a person: the string itself, a number, a case name, or compact JSON.
    static func displayText(of value: Self) -> String

    /// Every value of a type with few values (an enum's cases), or `nil`. A setting keeps an override of such a
    /// type as an index into this list, in one atomic word, so that reading it takes no lock and no copy.
    static var settingCases: [Self]? { get }
}

/// Why a value is not a valid value of a setting, in words fit for an error message (`must be 1…100`,
/// `one of light, dark, system`).
public struct SettingValueError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The reason, e.g. `must be 1…100`.
    public var reason: String

    /// Creates an error.
    /// - Parameter reason: what was expected.
    public init(_ reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { reason }
}

/// What kind of value a flag or setting holds, for tools that show and edit any of them.
public enum SettingType: Sendable, Hashable {
    /// On or off: flags (stored as `"on"`/`"off"`) and `Setting<Bool>`.
    case boolean
    /// Free text.
    case string
    /// A whole number.
    case integer
    /// A floating-point number.
    case double
    /// One of the given names (an enum's cases).
    case choice([String])
    /// Any `Codable` value, edited as JSON.
    case json

    /// A short name: `boolean`, `string`, `integer`, `double`, `choice`, `json`.
    public var name: String {
        switch self {
        case .boolean: return "boolean"
        case .string: return "string"
        case .integer: return "integer"
        case .double: return "double"
        case .choice: return "choice"
        case .json: return "json"
        }
    }

    /// The choices of a ``choice(_:)`` type, else empty.
    public var choices: [String] {
        if case .choice(let names) = self { return names }
        return []
    }
}

// MARK: - Defaults: any Codable value, as JSON

extension SettingValue {
    /// Any `Codable` value is edited as JSON.
    public static var settingType: SettingType { .json }

    /// The value encoded with `JSONEncoder` (keys sorted).
    public static func storedValue(of value: Self) -> OverrideValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8),
            let canonical = try? OverrideValue(json: text)
        else { return OverrideValue(canonical: "null") }
        return canonical
    }

    /// The value decoded with `JSONDecoder`; the error names the JSON path and what was expected.
    public static func decode(stored value: OverrideValue) throws(SettingValueError) -> Self {
        try decodeJSON(Data(value.json.utf8))
    }

    /// JSON text, decoded as the type.
    public static func parse(text: String) throws(SettingValueError) -> Self {
        let value = try OverrideValue(json: text)
        return try decode(stored: value)
    }

    /// JSON text, decoded as the type.
    public static func decode(remoteText: String) -> Self? {
        try? parse(text: remoteText)
    }

    /// Compact JSON, keys sorted.
    public static func displayText(of value: Self) -> String {
        storedValue(of: value).json
    }

    /// None: values are kept as they are.
    public static var settingCases: [Self]? { nil }

    /// Decodes JSON data as the type, turning `DecodingError` into words.
    static func decodeJSON(_ data: Data) throws(SettingValueError) -> Self {
        do {
            return try JSONDecoder().decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw SettingValueError(SettingValueError.describe(error, type: Self.self))
        } catch {
            throw SettingValueError("not a valid \(Self.self): \(error)")
        }
    }
}

// MARK: - Enums with String raw values: choices

extension SettingValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    /// The enum's cases, by raw value.
    public static var settingType: SettingType { .choice(allCases.map(\.rawValue)) }

    /// The raw value as a JSON string.
    public static func storedValue(of value: Self) -> OverrideValue { OverrideValue(string: value.rawValue) }

    /// A JSON string naming a case.
    public static func decode(stored value: OverrideValue) throws(SettingValueError) -> Self {
        guard let name = value.stringValue else {
            throw SettingValueError("expected \(choiceList), found \(value.json)")
        }
        return try parse(text: name)
    }

    /// A case name.
    public static func parse(text: String) throws(SettingValueError) -> Self {
        guard let value = Self(rawValue: text) else { throw SettingValueError("must be \(choiceList)") }
        return value
    }

    /// A case name.
    public static func decode(remoteText: String) -> Self? { Self(rawValue: remoteText) }

    /// The case name.
    public static func displayText(of value: Self) -> String { value.rawValue }

    /// The cases.
    public static var settingCases: [Self]? { Array(allCases) }

    private static var choiceList: String { "one of " + allCases.map(\.rawValue).joined(separator: ", ") }
}

// MARK: - Built-in types

extension String: SettingValue {
    /// Free text.
    public static var settingType: SettingType { .string }
    /// A JSON string.
    public static func storedValue(of value: String) -> OverrideValue { OverrideValue(string: value) }
    /// A JSON string.
    public static func decode(stored value: OverrideValue) throws(SettingValueError) -> String {
        guard let text = value.stringValue else { throw SettingValueError("expected a string, found \(value.json)") }
        return text
    }
    /// The text as typed.
    public static func parse(text: String) throws(SettingValueError) -> String { text }
    /// The text as delivered.
    public static func decode(remoteText: String) -> String? { remoteText }
    /// The text itself.
    public static func displayText(of value: String) -> String { value }
}

extension Int: SettingValue {
    /// A whole number.
    public static var settingType: SettingType { .integer }
    /// A JSON number.
    public static func storedValue(of value: Int) -> OverrideValue { OverrideValue(canonical: String(value)) }
    /// A JSON number without a fraction that fits in `Int`.
    public static func decode(stored value: OverrideValue) throws(SettingValueError) -> Int {
        guard let number = Int(value.json) else {
            if let sign = outOfRange(value.json) {
                let text = value.json.count > 60 ? String(value.json.prefix(59)) + "…" : value.json
                throw SettingValueError(
                    "expected a whole number from \(Int.min) to \(Int.max), found \(text), which is too \(sign)")
            }
            throw SettingValueError("expected a whole number, found \(value.json)")
        }
        return number
    }
    /// `"large"` or `"small"` for a whole number beyond `Int` (digits as the file holds them, or an integral
    /// `1e+30`), else `nil`.
    private static func outOfRange(_ json: String) -> String? {
        let digits = json.hasPrefix("-") ? json.dropFirst() : Substring(json)
        let whole =
            !digits.isEmpty && digits.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        if !whole {
            guard let double = Double(json), double.isFinite, double == double.rounded(),
                abs(double) >= 9.2e18
            else { return nil }
        }
        return json.hasPrefix("-") ? "small" : "large"
    }
    /// Decimal digits with an optional sign (surrounding spaces ignored).
    public static func parse(text: String) throws(SettingValueError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let number = Int(trimmed) else {
            if Double(trimmed) != nil { throw SettingValueError("must be a whole number (\(Int.min)…\(Int.max))") }
            throw SettingValueError("must be a whole number")
        }
        return number
    }
    /// A whole number; `"20.0"` counts, `"2.5"` does not.
    public static func decode(remoteText: String) -> Int? {
        let trimmed = remoteText.trimmingCharacters(in: .whitespaces)
        if let number = Int(trimmed) { return number }
        guard let double = Double(trimmed), double == double.rounded(), abs(double) < 9.2e18 else { return nil }
        return Int(double)
    }
    /// Decimal digits.
    public static func displayText(of value: Int) -> String { String(value) }
}

extension Double: SettingValue {
    /// A floating-point number.
    public static var settingType: SettingType { .double }
    /// A JSON number.
    public static func storedValue(of value: Double) -> OverrideValue {
        OverrideValue(canonical: OverrideValue.numberText(value))
    }
    /// A JSON number.
    public static func decode(stored value: OverrideValue) throws(SettingValueError) -> Double {
        guard !value.json.hasPrefix("\""), let number = Double(value.json), number.isFinite else {
            throw SettingValueError("expected a number, found \(value.json)")
        }
        return number
    }
    /// A finite decimal number (surrounding spaces ignored).
    public static func parse(text: String) throws(SettingValueError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let number = Double(trimmed), number.isFinite else { throw SettingValueError("must be a number") }
        return number
    }
    /// A finite number.
    public static func decode(remoteText: String) -> Double? { try? parse(text: remoteText) }
    /// Swift's shortest form (`0.5`, `20`).
    public static func displayText(of value: Double) -> String { OverrideValue.numberText(value) }
}

extension Bool: SettingValue {
    /// On or off.
    public static var settingType: SettingType { .boolean }
    /// `"on"` or `"off"`, as flags are stored.
    public static func storedValue(of value: Bool) -> OverrideValue { value ? .on : .off }
    /// `"on"`/`"off"`, or JSON `true`/`false`.
    public static func decode(stored value: OverrideValue) throws(SettingValueError) -> Bool {
        switch value.json {
        case #""on""#, "true": return true
        case #""off""#, "false": return false
        default: throw SettingValueError(#"expected "on" or "off", found \#(value.json)"#)
        }
    }
    /// `on`/`off` (also `true`/`false`, `yes`/`no`, `1`/`0`, `enabled`/`disabled`).
    public static func parse(text: String) throws(SettingValueError) -> Bool {
        switch OverrideState(word: text.trimmingCharacters(in: .whitespaces)) {
        case .enabled?: return true
        case .disabled?: return false
        default: throw SettingValueError("must be on or off")
        }
    }
    /// `true`/`false` and the words `parse(text:)` accepts.
    public static func decode(remoteText: String) -> Bool? { try? parse(text: remoteText) }
    /// `on` or `off`.
    public static func displayText(of value: Bool) -> String { value ? "on" : "off" }
}

extension SettingValueError {
    /// A `DecodingError` in words, with the JSON path.
    static func describe(_ error: DecodingError, type: Any.Type) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = "$"
            for key in codingPath {
                if let index = key.intValue { text += "[\(index)]" } else { text += ".\(key.stringValue)" }
            }
            return text
        }
        switch error {
        case .typeMismatch(let expected, let context):
            return "at \(path(context.codingPath)): expected \(describe(expected))"
        case .valueNotFound(let expected, let context):
            return "at \(path(context.codingPath)): expected \(describe(expected)), found null"
        case .keyNotFound(let key, let context):
            return "at \(path(context.codingPath)): missing \"\(key.stringValue)\""
        case .dataCorrupted(let context):
            let detail = context.debugDescription
            return context.codingPath.isEmpty
                ? "not a valid \(type): \(detail)" : "at \(path(context.codingPath)): \(detail)"
        @unknown default:
            return "not a valid \(type)"
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type, is Int32.Type: return "a whole number"
        case is Double.Type, is Float.Type: return "a number"
        default:
            let name = "\(type)"
            if name.hasPrefix("Dictionary") { return "an object" }
            if name.hasPrefix("Array") { return "an array" }
            return "\(name)"
        }
    }
}
