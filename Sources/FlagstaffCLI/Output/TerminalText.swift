import Flagstaff

/// Makes text from manifests, stores and servers safe to print.
///
/// Keys, labels and descriptions come from files the user may not have written. Printed raw, an escape
/// sequence in a label could move the cursor, recolour the terminal or retitle the window. Text output uses
/// the core's sanitiser, the one the console draws with: every C0 and C1 control character, `DEL` and the
/// bidirectional override/isolate characters become a visible, inert `\u{1B}`-style escape; tabs and line
/// breaks become one space so a record stays on one line. JSON output escapes the same characters
/// (``JSONOutput``).
enum TerminalText {
    /// Returns `text` with every unsafe character replaced by an inert, visible stand-in.
    /// - Parameter text: untrusted text.
    /// - Returns: text without control characters.
    static func safe(_ text: String) -> String {
        TextSanitizer.sanitize(text)
    }

    /// `text` followed by spaces up to `width` terminal columns (wide CJK characters count two, combining
    /// marks none), so columns line up whatever the script.
    /// - Parameters:
    ///   - text: text already made safe.
    ///   - width: the column width to fill.
    static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - columns(text)))
    }

    /// How many terminal columns `text` takes.
    static func columns(_ text: String) -> Int {
        DisplayWidth.of(text)
    }
}
