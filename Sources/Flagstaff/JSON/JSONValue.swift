import Foundation

/// Any JSON value, without loss of type (`true` is not `1`): the tree ``JSONReader`` builds when a reader wants
/// one (a shape to check, a value to describe in a message). The same type as the public ``JSONSettingValue``.
package typealias JSONValue = JSONSettingValue

extension JSONSettingValue {
    /// Why bytes are not JSON.
    package struct SyntaxError: Error, Sendable {
        /// What is wrong, after the line and column for a syntax error
        /// (`line 1, column 9: expected a value, found '}'`).
        package var detail: String?
        /// When an object repeats a member name: the path to the repeated member (the last component is the
        /// name).
        package var duplicate: [JSONPathComponent]?

        /// Creates an error.
        package init(detail: String?, duplicate: [JSONPathComponent]? = nil) {
            self.detail = detail
            self.duplicate = duplicate
        }

        /// The error in one line: ``detail``, or for a repeated member `the name "a" appears more than once (at
        /// $.b.a)`.
        package var message: String {
            guard let duplicate, case .member(let name)? = duplicate.last else { return detail ?? "not valid JSON" }
            let path = duplicate.reduce(into: "$") { text, component in
                switch component {
                case .member(let member): text += ".\(member)"
                case .index(let index): text += "[\(index)]"
                }
            }
            return "the name \(JSONText.quoted(name)) appears more than once (at \(path))"
        }

        /// The reader's failure.
        package init(_ failure: ReadFailure) {
            if failure.isDuplicate {
                self.init(detail: nil, duplicate: failure.components)
            } else if failure.location == nil && !failure.path.isEmpty {
                self.init(detail: "at \(failure.jsonPath): \(failure.message)")
            } else {
                self.init(detail: failure.detail)
            }
        }
    }

    /// Reads a JSON text (any value at the top level) with ``JSONReader``; an object that repeats a member name is
    /// an error. The encoding is detected first (``JSONTextEncoding``).
    /// - Parameter data: JSON text.
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` when the text is not JSON or repeats a member name.
    package static func read(_ data: Data) throws(SyntaxError) -> JSONValue {
        do throws(ReadFailure) {
            return try JSONReader.withText(data) { reader throws(ReadFailure) in try reader.readJSONValue() }
        } catch {
            throw SyntaxError(error)
        }
    }

    /// A JSON text read with ``readDocument(_:)``: the value and, when it is an object, where each of its members'
    /// values is in the text (in the text's order).
    package struct Document {
        /// The value.
        package var value: JSONValue
        /// The top-level object's members, each with the byte range of its value in ``text`` (empty when the
        /// value is not an object).
        package var members: [(name: String, value: Range<Int>)]
        /// The text read, as UTF-8 without a byte-order mark (see ``JSONTextEncoding``).
        package var text: Data

        /// The JSON text of a range of ``text`` (a member's value).
        package func json(_ range: Range<Int>) -> String {
            text.withUnsafeBytes { bytes in
                let clamped = range.clamped(to: 0..<bytes.count)
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[clamped]), as: UTF8.self)
            }
        }
    }

    /// Reads a JSON text as ``read(_:)`` does, noting where the top-level object's member values are.
    /// - Parameter data: JSON text.
    /// - Returns: the value and the top-level members' places.
    /// - Throws: ``SyntaxError`` when the text is not JSON or repeats a name (``SyntaxError/duplicate``).
    package static func readDocument(_ data: Data) throws(SyntaxError) -> Document {
        guard let text = JSONTextEncoding.utf8Text(data) else {
            let name = JSONTextEncoding.detect(data).name
            throw SyntaxError(detail: "the text looks like \(name) but is not valid \(name)")
        }
        do throws(ReadFailure) {
            let (value, members) = try JSONReader.withUTF8(text) {
                reader throws(ReadFailure) -> (JSONValue, [(name: String, value: Range<Int>)]) in
                guard reader.byte == UInt8(ascii: "{") else { return (try reader.readJSONValue(), []) }
                try reader.open()
                var object: [String: JSONValue] = [:]
                var members: [(name: String, value: Range<Int>)] = []
                var state = JSONReader.ObjectState()
                while let token = try reader.nextFieldName(&state) {
                    let name = token.string
                    guard object[name] == nil else { throw JSONReader.duplicateMember(name) }
                    let start = reader.offset
                    do throws(ReadFailure) {
                        object[name] = try reader.readJSONValue()
                    } catch {
                        throw error.inside(.field(name))
                    }
                    members.append((name, start..<reader.offset))
                }
                return (.object(object), members)
            }
            return Document(value: value, members: members, text: text)
        } catch {
            throw SyntaxError(error)
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

/// A place in a JSON text: a member name or an array index.
package enum JSONPathComponent: Sendable, Equatable {
    case member(String)
    case index(Int)
}

extension JSONSettingValue {
    /// The text of a string, else `nil`.
    package var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
