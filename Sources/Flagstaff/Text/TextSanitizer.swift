/// Makes untrusted text (flag keys, labels, descriptions, payloads, error messages) safe to draw.
///
/// Text from manifests and remote servers may contain escape sequences or other control characters that
/// would move the cursor, change colours or retitle the window if written to a terminal. The sanitiser
/// replaces each C0/C1 control character, `DEL`, and the bidirectional-override format characters with a
/// visible, inert escape such as `\u{1B}`; tabs and line breaks become a single space so a multi-line
/// description stays on one row. In ASCII-only mode every non-ASCII character becomes `?`.
///
/// The console draws through it, and the command line prints through it, so both show the same stand-ins.
package enum TextSanitizer {
    /// Returns `text` with every unsafe character replaced by an inert, visible stand-in.
    /// - Parameters:
    ///   - text: the untrusted text.
    ///   - asciiOnly: `true` when the terminal cannot draw UTF-8; non-ASCII characters then become `?`.
    /// - Returns: text that contains no control characters (and only ASCII when `asciiOnly`).
    package static func sanitize(_ text: String, asciiOnly: Bool = false) -> String {
        if isClean(text, asciiOnly: asciiOnly) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" || character == "\t" {
                result.append(" ")
                continue
            }
            let scalars = character.unicodeScalars
            if scalars.contains(where: isUnsafe) {
                for scalar in scalars {
                    if isUnsafe(scalar) {
                        UnicodeEscape.appendDisplay(scalar, to: &result)
                    } else {
                        result += asciiOnly && !scalar.isASCII ? "?" : String(scalar)
                    }
                }
            } else if asciiOnly && !character.isASCII {
                result.append("?")
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// `true` when `text` needs no change (the common case, checked without allocating).
    private static func isClean(_ text: String, asciiOnly: Bool) -> Bool {
        for byte in text.utf8 {
            if byte < 0x20 || byte == 0x7F { return false }
            if byte >= 0x80 {
                if asciiOnly { return false }
                return !text.unicodeScalars.contains(where: isUnsafe)
            }
        }
        return true
    }

    /// Whether a scalar must never reach a terminal raw: control characters (C0, DEL, C1) and the
    /// bidirectional marks, embeddings, overrides and isolates (U+200E, U+200F, U+061C, U+202A–U+202E,
    /// U+2066–U+2069). The command line escapes the same scalars in its JSON output.
    /// - Parameter scalar: the scalar to test.
    /// - Returns: `true` when it is unsafe.
    package static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        return (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
    }
}
