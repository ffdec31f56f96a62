import Flagstaff

/// Marks in the list and header, and the bulk question.
extension ConsoleLayout {
    /// The mark of a marked row (`✓`, `*` without UTF-8).
    static func markGlyph(_ context: Context) -> String { context.state.asciiOnly ? "*" : "✓" }

    /// Draws the mark in the list's mark column (column 1, left of every flag's name).
    static func drawMark(row: Int, _ context: Context, into buffer: inout ScreenBuffer) {
        buffer.put(markGlyph(context), row: row, column: 1, style: context.theme.strong)
    }

    /// `Force OFF 134 marked flags? (2 settings skipped (not on/off)) y yes  n no`.
    static func bulkQuestion(_ context: Context) -> String? {
        guard let change = context.state.pendingBulk else { return nil }
        let skipped = change.skippedNote.map { " (\($0))" } ?? ""
        return change.question + "?" + skipped + "  y yes  n no"
    }
}
