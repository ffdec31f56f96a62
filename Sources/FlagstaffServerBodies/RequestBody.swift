import Flagstaff
import Foundation

/// Request bodies read as JSON, with what is wrong said for the person who sent them. Each protocol turns a
/// ``Problem`` into its own error (OFREP's `PARSE_ERROR`/`INVALID_CONTEXT`, Unleash's plain 400).
///
/// The readers of `flagstaff serve`'s request bodies live in this module, apart from the server (Foundation and
/// `Flagstaff` only), so the fuzz build (docs/fuzzing.md) reads them without compiling the HTTP stack.
package enum RequestBody {
    /// Why a body was refused.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text is not JSON (or repeats a member name).
        case notJSON(String)
        /// JSON of the wrong shape.
        case wrongShape(String)

        /// The message.
        package var message: String {
            switch self {
            case .notJSON(let message), .wrongShape(let message): message
            }
        }

        package var description: String { message }
    }

    /// Reads the body with `read` (``JSONReader``: strict JSON, a member named twice is an error).
    /// - Throws: ``Problem/notJSON(_:)`` for text that is not JSON; what `read` throws otherwise.
    package static func read<T>(_ body: [UInt8], _ read: (inout JSONReader) throws(ReadFailure) -> T) throws(Problem)
        -> T
    {
        do throws(ReadFailure) {
            return try JSONReader.withText(Data(body), read)
        } catch {
            if error.isDuplicate, case .member(let name)? = error.components.last {
                throw .notJSON(
                    "the request body is not valid JSON (the name \(JSONText.quoted(name)) appears more than once)")
            }
            throw .notJSON("the request body is not valid JSON (\(error.detail))")
        }
    }

    /// The body as a JSON object.
    /// - Parameter expected: what the body must be, for the message (`a JSON object`).
    package static func object(_ body: [UInt8], expected: String) throws(Problem) -> [String: JSONValue] {
        let value = try read(body) { reader throws(ReadFailure) in try reader.readJSONValue() }
        guard case .object(let members) = value else {
            throw .wrongShape("the request body must be \(expected)")
        }
        return members
    }

    /// The context of an evaluation request: the body is empty (white space only) or a JSON object whose optional
    /// `context` member is an object (or `null`).
    /// - Returns: the context, empty when none was given.
    package static func context(_ body: [UInt8]) throws(Problem) -> [String: JSONValue] {
        if JSONTextEncoding.isBlank(body) { return [:] }
        let request = try object(body, expected: "a JSON object like {\"context\":{…}}")
        guard let context = request["context"], context != .null else { return [:] }
        guard case .object(let fields) = context else { throw .wrongShape("\"context\" must be a JSON object") }
        return fields
    }

    /// The context of an OFREP evaluation request: as ``context(_:)``, and its `targetingKey`, when given, is a
    /// string.
    /// - Returns: the context, empty when none was given.
    /// - Throws: ``Problem/notJSON(_:)`` (OFREP's `PARSE_ERROR`) or ``Problem/wrongShape(_:)`` (`INVALID_CONTEXT`).
    package static func ofrepContext(_ body: [UInt8]) throws(Problem) -> [String: JSONValue] {
        let context = try context(body)
        if let targetingKey = context["targetingKey"], targetingKey.stringValue == nil {
            throw .wrongShape("\"context.targetingKey\" must be a string")
        }
        return context
    }
}
