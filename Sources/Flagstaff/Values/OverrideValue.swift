import Foundation

/// A value kept in an override store: a flag's forced state (`"on"`/`"off"`) or a typed setting's value, as
/// canonical JSON text.
///
/// The store does not know which keys are flags and which are settings: it keeps every entry as JSON, and the
/// registry interprets an entry by the type of the flag or setting declared under its key. Two values are equal
/// when their canonical texts are (object members sorted by name, integral numbers without a fraction).
public struct OverrideValue: Sendable, Hashable, CustomStringConvertible {
    /// The value as compact, canonical JSON text: `"on"` (with the quotes), `20`, `0.5`, `{"a":1}`.
    public let json: String

    /// A flag forced on: the JSON string `"on"`.
    public static let on = OverrideValue(canonical: #""on""#)
    /// A flag forced off: the JSON string `"off"`.
    public static let off = OverrideValue(canonical: #""off""#)

    init(canonical json: String) { self.json = json }

    /// Parses JSON text (any JSON value, strings and numbers included) into its canonical form.
    /// - Parameter json: JSON text, e.g. `"#000000"` with quotes, `20` or `{"b":1,"a":2}`.
    /// - Throws: ``SettingValueError`` when the text is not JSON or repeats a member name.
    public init(json: String) throws(SettingValueError) {
        do throws(ReadFailure) {
            self = try JSONReader.withText(Data(json.utf8)) { reader throws(ReadFailure) in
                try reader.readOverrideValue()
            }
        } catch {
            if error.isDuplicate, case .member(let name)? = error.components.last {
                throw SettingValueError("not valid JSON: the name \(JSONText.quoted(name)) appears more than once")
            }
            throw SettingValueError("not valid JSON (\(TextSanitizer.sanitize(StoreDocument.detail(error))))")
        }
    }

    /// A value made of Foundation objects (as `JSONSerialization` returns them), in canonical form.
    /// - Parameter object: `String`, `NSNumber`, `NSNull`, `[Any]` or `[String: Any]`.
    package init(jsonObject object: Any) {
        if let text = object as? String {
            if text == "on" {
                self = .on
                return
            }
            if text == "off" {
                self = .off
                return
            }
        }
        self.init(canonical: Self.canonicalText(object))
    }

    /// The JSON string `text`.
    /// - Parameter text: any string.
    public init(string text: String) {
        self.init(canonical: JSONText.quoted(text))
    }

    /// The flag state this value forces: `.enabled` for `"on"`, `.disabled` for `"off"`, else `nil`.
    public var overrideState: OverrideState? {
        if self == .on { return .enabled }
        if self == .off { return .disabled }
        return nil
    }

    /// The value for a flag state: `"on"`, `"off"`, or `nil` for `.featureDefault`.
    /// - Parameter state: the state.
    public init?(_ state: OverrideState) {
        switch state {
        case .featureDefault: return nil
        case .enabled: self = .on
        case .disabled: self = .off
        }
    }

    /// The JSON text.
    public var description: String { json }

    /// The value as Foundation objects (`String`, `NSNumber`, …), for output written with `JSONSerialization`.
    /// Whole numbers keep every digit.
    package var jsonObject: Any? {
        try? JSONValue.readFoundation(Data(json.utf8))
    }

    /// The value as a JSON tree.
    package var jsonValue: JSONValue? {
        try? JSONValue.read(Data(json.utf8))
    }

    /// How the value reads in a message: `true`, `3`, `123456789012345678901234567890`, `"maybe"` (quoted, terminal-unsafe characters escaped),
    /// `an array`, `an object`.
    package var summary: String {
        guard let value = jsonValue else { return json }
        // A number as its canonical text: a whole number beyond 64 bits keeps the digits the file holds.
        if case .number = value { return json.count > 60 ? String(json.prefix(59)) + "…" : json }
        return value.summary
    }

    /// The value as a string when it is a JSON string, else `nil`.
    public var stringValue: String? {
        guard json.hasPrefix("\""), case .string(let text)? = jsonValue else { return nil }
        return text
    }

    /// Canonical compact JSON for a value read by `JSONSerialization`: members sorted by name, integral
    /// numbers that fit in 64 bits without a fraction, other numbers in Swift's shortest round-trip form.
    package static func canonicalText(_ object: Any) -> String {
        var text = ""
        write(object, to: &text)
        return text
    }

    private static func write(_ object: Any, to text: inout String) {
        switch object {
        case let string as String:
            text += JSONText.quoted(string)
        case let number as NSNumber:
            let type = String(cString: number.objCType)
            if type == "c" || type == "B" {
                text += number.boolValue ? "true" : "false"
            } else if type == "Q" {
                text += "\(number.uint64Value)"
            } else if ["q", "l", "i", "s", "L", "I", "S"].contains(type) {
                text += "\(number.int64Value)"
            } else {
                text += numberText(JSONNumber.double(number))
            }
        case let dictionary as [String: Any]:
            text += "{"
            for (index, key) in dictionary.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                text += JSONText.quoted(key) + ":"
                write(dictionary[key] as Any, to: &text)
            }
            text += "}"
        case let array as [Any]:
            text += "["
            for (index, element) in array.enumerated() {
                if index > 0 { text += "," }
                write(element, to: &text)
            }
            text += "]"
        default:
            text += "null"
        }
    }

    /// `20` for 20.0 (when it fits in 64 bits), else Swift's shortest form (`0.5`, `1e+300`).
    package static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9.2e18 { return String(Int64(value)) }
        return "\(value)"
    }
}
