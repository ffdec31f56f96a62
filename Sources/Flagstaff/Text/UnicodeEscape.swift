/// Writes a Unicode scalar as an escape, in the two notations the package uses: `\u001B` in JSON text and
/// `\u{1B}` in text shown to people. Hex digits are uppercase in both.
///
/// Every escape the package writes itself goes through here: the store file and manifest error messages
/// (``JSONText``), the command line's JSON output, and the display sanitiser (``TextSanitizer``).
package enum UnicodeEscape {
    /// Appends the JSON escape of `scalar`: `\u` and four hex digits, or a UTF-16 surrogate pair of two such
    /// escapes above U+FFFF, as RFC 8259 requires.
    /// - Parameters:
    ///   - scalar: the scalar to escape.
    ///   - text: the text to append to.
    package static func appendJSON(_ scalar: Unicode.Scalar, to text: inout String) {
        if scalar.value > 0xFFFF {
            let offset = scalar.value - 0x1_0000
            appendJSONUnit(0xD800 + (offset >> 10), to: &text)
            appendJSONUnit(0xDC00 + (offset & 0x3FF), to: &text)
        } else {
            appendJSONUnit(scalar.value, to: &text)
        }
    }

    /// Appends the display escape of `scalar`: `\u{` and its hex value without padding, then `}` (Swift's
    /// notation), e.g. `\u{1B}` for ESC: visible and inert in a terminal.
    /// - Parameters:
    ///   - scalar: the scalar to escape.
    ///   - text: the text to append to.
    package static func appendDisplay(_ scalar: Unicode.Scalar, to text: inout String) {
        text += "\\u{"
        appendHex(scalar.value, digits: 1, to: &text)
        text += "}"
    }

    private static func appendJSONUnit(_ unit: UInt32, to text: inout String) {
        text += "\\u"
        appendHex(unit, digits: 4, to: &text)
    }

    /// Appends `value` in uppercase hex, zero-padded to at least `digits` digits.
    private static func appendHex(_ value: UInt32, digits: Int, to text: inout String) {
        let hex = String(value, radix: 16, uppercase: true)
        if hex.count < digits { text += String(repeating: "0", count: digits - hex.count) }
        text += hex
    }
}
