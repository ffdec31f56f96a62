/// Makes text from manifests, stores and servers safe to print.
///
/// Keys, labels and descriptions come from files the user may not have written. Printed raw, an escape
/// sequence in a label could move the cursor, recolour the terminal or retitle the window. Every C0 and C1
/// control character, `DEL` and the bidirectional override/isolate characters become a visible, inert
/// `\u{1B}`-style escape; tabs and line breaks become one space so a record stays on one line.
enum TerminalText {
    /// Returns `text` with every unsafe character replaced by an inert, visible stand-in.
    /// - Parameter text: untrusted text.
    /// - Returns: text without control characters.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isUnsafe($0) || isWhitespaceControl($0) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isWhitespaceControl(scalar) {
                result += " "
            } else if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Tab, line feed, carriage return: shown as a space.
    private static func isWhitespaceControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\n" || scalar == "\r"
    }

    /// C0 (except the whitespace above), DEL, C1, and the bidirectional embedding/override/isolate marks.
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        if isWhitespaceControl(scalar) { return false }
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        return (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
            || value == 0x200E || value == 0x200F || value == 0x061C
    }
}
