import Flagstaff
import Foundation

/// Encodes command results as JSON for scripts: pretty-printed, keys sorted, terminal-safe.
///
/// `JSONEncoder` escapes C0 control characters; this also escapes DEL, C1 controls, the bidirectional marks
/// ``TextSanitizer`` replaces in text output, and the line and paragraph separators (as `\u0085`-style
/// escapes, still valid JSON), so piping the output to a terminal is harmless.
enum JSONOutput {
    /// Encodes a value to JSON text.
    /// - Parameter value: the value.
    /// - Returns: the JSON text, without a trailing newline.
    /// - Throws: `CLIFailure` if encoding fails (it cannot for the types used here).
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw CLIFailure.runtime("cannot encode the result as JSON: \(error)")
        }
        return terminalSafe(String(decoding: data, as: UTF8.self))
    }

    /// Prints a value as JSON on standard output.
    /// - Parameter value: the value.
    /// - Throws: `CLIFailure` if encoding fails.
    static func print<T: Encodable>(_ value: T) throws {
        StandardStreams.out(try encode(value))
    }

    /// Valid JSON text with every scalar ``isEscaped(_:)`` picks written as a `\uXXXX` escape (the same value).
    /// - Parameter json: valid JSON text.
    static func terminalSafe(_ json: String) -> String {
        JSONText.escaping(json, where: isEscaped)
    }

    /// A JSON string literal whose scalars ``isEscaped(_:)`` picks are escaped.
    /// - Parameter text: any text.
    static func quoted(_ text: String) -> String {
        JSONText.quoted(text, alsoEscaping: isEscaped)
    }

    /// The scalars the command line never writes raw in JSON: those ``TextSanitizer`` replaces in text
    /// (controls and bidirectional marks), and U+2028/U+2029, which end a line in some readers.
    static func isEscaped(_ scalar: Unicode.Scalar) -> Bool {
        TextSanitizer.isUnsafe(scalar) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
