import Flagstaff

extension ConsoleLayout {
    /// The help overlay's lines: every key of the list and the search field, from ``KeyBindings``.
    static let helpLines: [String] = {
        func line(_ binding: KeyBinding) -> String {
            binding.keyNames + String(repeating: " ", count: max(1, 30 - DisplayWidth.of(binding.keyNames)))
                + binding.help
        }
        let list = KeyBindings.bindings(in: .list)
        let search = KeyBindings.bindings(in: .search).filter { !$0.modes.contains(.list) }
        return list.map(line) + ["", "While searching:"] + search.map(line)
    }()

    static func drawHelp(_ context: Context, into buffer: inout ScreenBuffer) {
        let lines = helpLines
        // The box shows at most height - 6 entries; when they do not all fit, ↑/↓ scroll them.
        let fits = lines.count <= buffer.height - 6
        let offset = fits ? 0 : min(context.state.helpOffset, max(0, lines.count - (buffer.height - 6)))
        let footer = fits ? "? or Esc closes" : "\(context.glyphs.upDown) scroll  ? or Esc closes"
        drawBox(title: "Keys", lines: Array(lines.dropFirst(offset)), footer: footer, context, into: &buffer)
    }

    static func drawRestartPrompt(_ context: Context, into buffer: inout ScreenBuffer) {
        let g = context.glyphs
        var lines = context.state.pendingRestarts.map { change -> String in
            "\(g.restart) " + context.clean(change.label) + "  " + context.onOff(change.launchValue)
                + " \(g.rightArrow) "
                + context.onOff(change.currentValue)
        }
        lines.insert("These changes need a restart:", at: 0)
        drawBox(
            title: "Restart needed", lines: lines, footer: footerKeys(context, width: buffer.width - 6), context,
            into: &buffer
        )
    }

    /// A centred, bordered box; lines and footer are truncated to fit, rows beyond the screen are dropped.
    private static func drawBox(
        title: String, lines: [String], footer: String, _ context: Context, into buffer: inout ScreenBuffer
    ) {
        let g = context.glyphs
        let contentWidth = min(buffer.width - 6, max(DisplayWidth.of(footer), lines.map(DisplayWidth.of).max() ?? 0))
        let boxWidth = contentWidth + 4
        let maxLines = max(0, buffer.height - 6)
        let shown = Array(lines.prefix(maxLines))
        let boxHeight = shown.count + 4
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
        let footerRow = top + 1 + shown.count
        for row in [footerRow, footerRow + 1] {
            buffer.put(g.vertical, row: row, column: left, style: strong)
            buffer.put(g.vertical, row: row, column: left + boxWidth - 1, style: strong)
        }
        buffer.put(
            truncate(footer, to: contentWidth, context), row: footerRow + 1, column: left + 2,
            style: context.theme.warning)
        buffer.put(g.corners.2 + horizontal + g.corners.3, row: footerRow + 2, column: left, style: strong)
    }
}
