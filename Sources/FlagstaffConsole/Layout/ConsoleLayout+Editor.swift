import Flagstaff

extension ConsoleLayout {
    /// The inline editor on the footer line: `Max Items: 20▏` with the cursor drawn in reverse video, then
    /// the validation (`✗ must be 1…100`) or the keys. The text scrolls sideways to keep the cursor in view.
    static func drawEditor(_ editor: ValueEditor, row: Int, _ context: Context, into buffer: inout ScreenBuffer) {
        buffer.fill(row: row)
        let label = context.state.flag(forKey: editor.key).map(\.label) ?? editor.key
        let prompt = " " + truncate(context.clean(label), to: max(4, buffer.width / 4), context) + ": "
        var x = buffer.put(prompt, row: row, column: 0, style: context.theme.strong)
        // The reason the value is not valid (it takes the room first), then the keys that matter now: Enter saves
        // only a valid value.
        let problem = editor.problem.map { " \(context.state.asciiOnly ? "x" : "✗") " + context.clean($0) }
        let hints = "  " + (problem == nil ? "Enter save  " : "") + "Esc cancel"
        let tailWidth = min(DisplayWidth.of((problem ?? "") + hints), max(0, (buffer.width - x) / 2))
        let room = max(1, buffer.width - x - tailWidth - 1)
        // Each character as shown (control characters escaped), so the cursor lands on the right cell.
        let shown = editor.characters.map { context.clean(String($0)) }
        var start = 0
        func width(_ range: Range<Int>) -> Int { shown[range].reduce(0) { $0 + DisplayWidth.of($1) } }
        while start < editor.cursor, width(start..<editor.cursor) + 1 > room { start += 1 }
        var used = 0
        var index = start
        while index < shown.count {
            let w = DisplayWidth.of(shown[index])
            if used + w > room { break }
            let style = index == editor.cursor ? context.theme.strong.reversed() : context.theme.plain
            x = buffer.put(shown[index], row: row, column: x, style: style)
            used += w
            index += 1
        }
        if editor.cursor == shown.count, used < room {
            x = buffer.put(" ", row: row, column: x, style: context.theme.strong.reversed())
        }
        let end = buffer.width
        if let problem {
            // The keys only when the whole reason fits beside them.
            let keysFit = DisplayWidth.of(problem + hints) <= end - x
            x = buffer.put(
                problem, row: row, column: x, style: context.theme.warning,
                maxWidth: max(0, end - x - (keysFit ? DisplayWidth.of(hints) : 0)))
            if keysFit { buffer.put(hints, row: row, column: x, maxWidth: max(0, end - x)) }
        } else {
            buffer.put(hints, row: row, column: x, maxWidth: max(0, end - x))
        }
    }
}
