import Flagstaff

/// The history overlay's drawing.
extension ConsoleLayout {
    /// One line of the overlay per change: `2026-11-23 19:02:10  console  blueText: off → on`, with
    /// `(until …)` after a value set to expire; a change of several keys names them with their values until the
    /// line is full.
    static func historyLine(_ change: HistoryChange, _ context: Context) -> String {
        let arrow = " \(context.glyphs.rightArrow) "
        let origin = change.origin.rawValue
        var line = ConsoleState.dateTimeText(change.time) + "  " + context.clean(origin)
        line += String(repeating: " ", count: max(1, 9 - DisplayWidth.of(origin)))
        if change.entries.count > 1 { line += "\(change.entries.count) keys: " }
        line += change.entries.prefix(20).map { entry in
            context.clean(entry.key) + ": " + context.clean(ConsoleState.valueText(entry.old)) + arrow
                + context.clean(ConsoleState.valueText(entry.new))
                + (entry.newExpiresAt.map { " (until " + ConsoleState.dateTimeText($0) + ")" } ?? "")
        }.joined(separator: ", ")
        return line
    }

    /// The history overlay: a title line (how many changes, unreadable lines), then one line per change,
    /// newest first, the selected one marked `▸`; scrolled to keep the selection shown.
    static func drawHistory(_ context: Context, into buffer: inout ScreenBuffer) {
        guard let overlay = context.state.history else { return }
        let metrics = BoxMetrics(width: buffer.width, height: buffer.height)
        let contents = overlay.contents
        var lines: [String] = []
        if let unavailable = contents.unavailable {
            lines.append(context.clean(unavailable))
        } else if contents.changes.isEmpty, contents.problems.isEmpty {
            lines.append("No changes recorded yet")
        } else {
            let count = contents.changes.count
            lines.append("\(count) change\(count == 1 ? "" : "s"), newest first (times in UTC)")
            if let first = contents.problems.first {
                // The first unreadable line with its file name, line number and reason.
                let lineCount = contents.problems.count
                let problem = abbreviatingPaths(
                    context.clean(first), longerThan: 0, fileNameOnly: true, ellipsis: context.glyphs.ellipsis)
                lines.append("\(lineCount) unreadable line\(lineCount == 1 ? "" : "s") skipped: " + problem)
            }
            lines.append("")
            let end = min(count, overlay.offset + context.state.historyVisibleCount)
            if overlay.offset < end {
                for index in overlay.offset..<end {
                    let marker = index == overlay.selected ? context.glyphs.collapsed + " " : "  "
                    lines.append(marker + historyLine(contents.changes[index], context))
                }
            }
        }
        // Long lines are cut at the box's edge; the box always takes the widest room it may.
        lines = lines.map { truncate($0, to: metrics.maxContentWidth, context) }
        let footer = footerKeys(context, width: metrics.maxContentWidth)
        let padded = lines + [String(repeating: " ", count: metrics.maxContentWidth)]
        drawBox(
            title: "History", lines: Array(padded.prefix(max(lines.count, metrics.maxLines))), footer: footer, context,
            into: &buffer)
    }
}
