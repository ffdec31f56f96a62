/// Any JSON value, decoded without loss of type (`true` is not `1`), for strict validation with precise
/// messages (the override file parser).
package enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Decodes any JSON value.
    /// - Parameter decoder: a JSON decoder's single value.
    /// - Throws: `DecodingError` when the input is not JSON.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: they are what override files hold, and every failed attempt costs a thrown error.
        if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// How the value reads in a message: `null`, `true`, `3`, `"maybe"`, `an array`, `an object`. Strings are
    /// quoted with control characters and bidirectional marks escaped, so the message is safe to print.
    package var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        case .string(let value): return JSONText.quoted(value, alsoEscaping: TextSanitizer.isUnsafe)
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
