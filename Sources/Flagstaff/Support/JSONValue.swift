import Foundation

/// Any JSON value, without loss of type (`true` is not `1`), for strict validation with precise messages
/// (the override file parser).
///
/// ``read(_:)`` reads the text with `JSONSerialization` (about half the time of `JSONDecoder` on 100,000
/// entries); a reader walks the result and converts only the values it compares or reports
/// (``init(_:)``), so a large valid file costs no copy.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why bytes are not JSON.
    package struct SyntaxError: Error, Sendable {
        /// Where the reader stopped, as it says it (`Invalid value around character 9.`), if it says.
        package var detail: String?
    }

    /// Reads a JSON text (any value at the top level; of duplicate keys one is kept).
    /// - Parameter data: UTF-8 JSON text.
    /// - Returns: what `JSONSerialization` returns: `String`, `NSNumber` (booleans too), `NSNull`,
    ///   `[Any]` or `[String: Any]`; convert a value with ``init(_:)``.
    /// - Throws: ``SyntaxError`` when the text is not JSON.
    package static func read(_ data: Data) throws(SyntaxError) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw SyntaxError(detail: detail.flatMap { $0.isEmpty ? nil : $0 })
        }
    }

    /// Converts a value ``read(_:)`` returned.
    /// - Parameter object: a value from `JSONSerialization`.
    package init(_ object: Any) {
        switch object {
        case let text as String:
            self = .string(text)
        case let number as NSNumber:
            // Booleans are NSNumbers whose type is `char` ("c"); JSON numbers never are.
            self = String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        case let dictionary as [String: Any]:
            self = .object(dictionary.mapValues(JSONValue.init))
        case let array as [Any]:
            self = .array(array.map(JSONValue.init))
        default:
            self = .null
        }
    }

    /// How the value reads in a message: `null`, `true`, `3`, `"maybe"`, `an array`, `an object`. Strings are
    /// quoted with control characters and bidirectional marks escaped, so the message is safe to print.
    package var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        case .string(let value): return JSONText.quoted(value, alsoEscaping: TextSanitizer.isUnsafe)
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
