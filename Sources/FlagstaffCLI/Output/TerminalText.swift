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

    /// The longest word (a run without spaces) a diagnostic shows whole, in characters.
    static let longestWord = 160

    /// `text` made safe, with every word (a run without spaces) longer than ``longestWord`` characters cut
    /// to its start and its length, e.g. `'aaaa…' (5000 characters)`: a pasted file or a runaway argument
    /// echoed back in an error stays readable.
    /// - Parameter text: untrusted text, one line.
    static func diagnostic(_ text: String) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            guard word.count > longestWord else { return safe(String(word)) }
            return safe(String(word.prefix(longestWord / 2))) + "…(\(word.count) characters)"
        }.joined(separator: " ")
    }
}
