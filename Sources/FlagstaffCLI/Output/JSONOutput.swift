import Foundation

/// Encodes command results as JSON for scripts: pretty-printed, keys sorted, terminal-safe.
///
/// `JSONEncoder` escapes C0 control characters; this also escapes C1 controls and bidirectional overrides
/// (as `\u0085`-style escapes, still valid JSON), so piping the output to a terminal is harmless.
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
        let text = String(decoding: data, as: UTF8.self)
        return escapeUnsafeScalars(text)
    }

    /// Prints a value as JSON on standard output.
    /// - Parameter value: the value.
    /// - Throws: `CLIFailure` if encoding fails.
    static func print<T: Encodable>(_ value: T) throws {
        StandardStreams.out(try encode(value))
    }

    /// Replaces the scalars ``TerminalText`` considers unsafe by `\uXXXX` escapes. JSON text has them only
    /// inside strings (the encoder already escaped C0), where the escape means the same character.
    static func escapeUnsafeScalars(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: TerminalText.isUnsafe) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            if TerminalText.isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
