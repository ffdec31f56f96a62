import Flagstaff

/// Any JSON value, decoded without loss of type (`true` is not `1`), for strict validation with precise
/// messages.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// How the value reads in a message: `null`, `true`, `3`, `"maybe"`, `an array`, `an object`.
    var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        case .string(let value): return JSONValue.quoted(value)
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A JSON string literal, terminal-safe: control, bidirectional and line-separator characters escaped.
    static func quoted(_ text: String) -> String {
        JSONText.quoted(text) { TerminalText.isUnsafe($0) || $0.value == 0x2028 || $0.value == 0x2029 }
    }
}
