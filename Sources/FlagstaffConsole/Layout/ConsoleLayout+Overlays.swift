import Flagstaff

extension ConsoleLayout {
    /// The help overlay's entries: every key of the list, then a section for each place that has keys of its
    /// own (the search field, the value editor and choice list, the history, the profile picker, the expiry
    /// menu), from ``KeyBindings``; an entry without keys is a section title ("While searching:"), an empty entry
    /// a blank line.
    static let helpEntries: [(keys: String, help: String)] = {
        let sections: [(ConsoleMode.Kind, String)] = [
            (.search, "While searching:"), (.edit, "Editing a value (Enter on a setting):"),
            (.pick, "Choosing a value from a list:"), (.history, "In the history (H):"),
            (.profiles, "In the profile picker (p):"), (.expiry, "In the expiry menu (t):"),
            (.apps, "In the connected apps (A):"),
        ]
        var entries = KeyBindings.bindings(in: .list).map { ($0.keyNames, $0.help) }
        for (mode, title) in sections {
            // Keys that work the same in the list are not repeated.
            let own = KeyBindings.bindings(in: mode).filter { !$0.modes.contains(.list) && !$0.help.isEmpty }
            guard !own.isEmpty else { continue }
            entries += [("", ""), ("", title)] + own.map { ($0.keyNames, $0.help) }
        }
        return entries
    }()

    /// The help lines for a box as wide as a large terminal gives it (key column of 30).
    static var helpLines: [String] { helpLines(contentWidth: .max) }

    /// The help lines in a box `contentWidth` columns wide: keys in a 30-column key column when every
    /// description fits beside it; else each entry on one line (`Up k Ctrl-P  move up`) when it fits, and
    /// otherwise the keys on a line and the description wrapped below them, indented.
    static func helpLines(contentWidth width: Int) -> [String] {
        let widest = helpEntries.map { DisplayWidth.of($0.help) }.max() ?? 0
        if width >= 30 + widest {
            return helpEntries.map { entry in
                guard !entry.keys.isEmpty else { return entry.help }
                return entry.keys + String(repeating: " ", count: max(1, 30 - DisplayWidth.of(entry.keys))) + entry.help
            }
        }
        return helpEntries.flatMap { entry -> [String] in
            guard !entry.keys.isEmpty else { return entry.help.isEmpty ? [""] : wrap(entry.help, width: width) }
            let line = entry.keys + "  " + entry.help
            if DisplayWidth.of(line) <= width { return [line] }
            return [entry.keys] + wrap(entry.help, width: width - 4).map { "    " + $0 }
        }
    }

    /// The help lines for a terminal of this size (what ``drawHelp(_:into:)`` scrolls through).
    static func helpLines(terminalWidth: Int, height: Int) -> [String] {
        helpLines(contentWidth: BoxMetrics(width: terminalWidth, height: height).maxContentWidth)
    }

    static func drawHelp(_ context: Context, into buffer: inout ScreenBuffer) {
        let metrics = BoxMetrics(width: buffer.width, height: buffer.height)
        let lines = helpLines(contentWidth: metrics.maxContentWidth)
        // When the lines do not all fit, ↑/↓ (and PgUp/PgDn) scroll them; the footer says which are shown.
        let visible = metrics.maxLines
        let fits = lines.count <= visible
        let offset = fits ? 0 : min(context.state.helpOffset, max(0, lines.count - visible))
        var footer = "? or Esc closes"
        if !fits {
            let range = "\(offset + 1)-\(min(lines.count, offset + visible)) of \(lines.count)"
            let upDown = context.glyphs.upDown
            let candidates = [
                "\(upDown) PgUp PgDn scroll \(context.glyphs.dot) lines \(range) \(context.glyphs.dot) ? or Esc closes",
                "\(upDown) scroll \(context.glyphs.dot) \(range) \(context.glyphs.dot) Esc closes",
                "\(upDown) \(range) Esc closes",
            ]
            footer = candidates.first { DisplayWidth.of($0) <= metrics.maxContentWidth } ?? candidates[2]
        }
        // The box keeps the width of the widest line while it scrolls (the last lines may all be short).
        var shown = Array(lines.dropFirst(offset))
        if let first = shown.first, let widest = lines.map(DisplayWidth.of).max() {
            shown[0] = first + String(repeating: " ", count: max(0, widest - DisplayWidth.of(first)))
        }
        drawBox(title: "Keys", lines: shown, footer: footer, context, into: &buffer)
    }

    /// The room a box gets: in a terminal under 60×16 it takes the whole screen and drops the blank row
    /// above its footer; otherwise it keeps a margin.
    struct BoxMetrics {
        /// Whether the box fills the screen.
        let compact: Bool
        /// The widest line inside the box.
        let maxContentWidth: Int
        /// The most lines shown inside the box.
        let maxLines: Int

        init(width: Int, height: Int) {
            compact = width < 60 || height < 16
            maxContentWidth = max(1, width - (compact ? 4 : 6))
            maxLines = max(1, height - (compact ? 3 : 6))
        }
    }

    static func drawRestartPrompt(_ context: Context, into buffer: inout ScreenBuffer) {
        let g = context.glyphs
        var lines = context.state.pendingRestarts.map { change -> String in
            let old = change.launchText.map(context.clean) ?? context.onOff(change.launchValue)
            let new = change.currentText.map(context.clean) ?? context.onOff(change.currentValue)
            return "\(g.restart) " + context.clean(change.label) + "  " + old + " \(g.rightArrow) " + new
        }
        lines.insert("These changes need a restart:", at: 0)
        drawBox(
            title: "Restart needed", lines: lines,
            footer: footerKeys(context, width: BoxMetrics(width: buffer.width, height: buffer.height).maxContentWidth),
            context,
            into: &buffer
        )
    }

    /// The picker of an enum setting: its choices, the highlighted one marked `▸`, the current value noted.
    static func drawPicker(_ context: Context, into buffer: inout ScreenBuffer) {
        guard let picker = context.state.picker else { return }
        let metrics = BoxMetrics(width: buffer.width, height: buffer.height)
        let lines = picker.choices.enumerated().map { index, choice -> String in
            (index == picker.selected ? context.glyphs.collapsed + " " : "  ") + context.clean(choice)
                + (index == picker.current ? "  (current)" : "")
        }
        // Long lists scroll so the highlighted choice stays in the box.
        let first = max(0, picker.selected - metrics.maxLines + 1)
        drawBox(
            title: context.clean(picker.label), lines: Array(lines.dropFirst(first)),
            footer: footerKeys(context, width: metrics.maxContentWidth), context, into: &buffer)
    }

    /// A centred, bordered box; lines and footer are truncated to fit, rows beyond the screen are dropped.
    static func drawBox(
        title: String, lines: [String], footer: String, _ context: Context, into buffer: inout ScreenBuffer
    ) {
        let g = context.glyphs
        let metrics = BoxMetrics(width: buffer.width, height: buffer.height)
        let contentWidth = min(
            metrics.maxContentWidth, max(DisplayWidth.of(footer), lines.map(DisplayWidth.of).max() ?? 0))
        let boxWidth = contentWidth + 4
        let shown = Array(lines.prefix(metrics.maxLines))
        let gap = metrics.compact ? 0 : 1  // the blank row above the footer
        let boxHeight = shown.count + 3 + gap
        let left = max(0, (buffer.width - boxWidth) / 2)
        let top = max(0, (buffer.height - boxHeight) / 2)
        let horizontal = String(repeating: g.rule, count: max(0, boxWidth - 2))
        let strong = context.theme.strong
        for row in top..<min(buffer.height, top + boxHeight) { buffer.fill(row: row, from: left, to: left + boxWidth) }
        buffer.put(g.corners.0 + horizontal + g.corners.1, row: top, column: left, style: strong)
        buffer.put(" \(title) ", row: top, column: left + 2, style: strong)
        for (offset, line) in shown.enumerated() {
            let row = top + 1 + offset
            buffer.put(g.vertical, row: row, column: left, style: strong)
            buffer.put(truncate(line, to: contentWidth, context), row: row, column: left + 2)
            buffer.put(g.vertical, row: row, column: left + boxWidth - 1, style: strong)
        }
        let footerRow = top + 1 + shown.count + gap
        for row in footerRow - gap...footerRow {
            buffer.put(g.vertical, row: row, column: left, style: strong)
            buffer.put(g.vertical, row: row, column: left + boxWidth - 1, style: strong)
        }
        buffer.put(
            truncate(footer, to: contentWidth, context), row: footerRow, column: left + 2,
            style: context.theme.warning)
        buffer.put(g.corners.2 + horizontal + g.corners.3, row: footerRow + 1, column: left, style: strong)
    }
}
