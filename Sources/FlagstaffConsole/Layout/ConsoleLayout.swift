import Flagstaff
import Foundation

/// Renders a ``ConsoleState`` into a ``ScreenBuffer``: the console's screen, without a terminal.
///
/// Layout, top to bottom: header (title, counts, remote-source status), search line (query and scope bar),
/// rule, list, then — when the terminal has at least 20 rows and the pane is on — rule and three detail lines,
/// then rule and footer (keys for the mode, or a message). Overlays (help, restart prompt) are drawn on top.
/// Below the minimum size the screen is one line asking for a larger terminal. Every string that comes from
/// the registry is sanitised before it is drawn. Cost: proportional to the visible rows, not to the number of
/// flags.
package enum ConsoleLayout {
    /// Renders the whole screen.
    /// - Parameter state: the console state.
    /// - Returns: a buffer of `state.width × state.height` cells.
    package static func render(_ state: ConsoleState) -> ScreenBuffer {
        var buffer = ScreenBuffer(width: state.width, height: state.height)
        let context = Context(state: state)
        if state.isTooSmall {
            for (row, line) in tooSmallLines(state).enumerated() {
                buffer.put(line, row: row, column: 0, style: context.theme.warning)
            }
            return buffer
        }
        drawHeader(context, into: &buffer)
        drawSearchLine(context, into: &buffer)
        drawRule(row: 2, context, into: &buffer)
        if let banner = state.bisect { drawBisectBanner(banner, row: 3, context, into: &buffer) }
        drawList(context, top: 3 + state.bannerHeight, into: &buffer)
        var row = 3 + state.bannerHeight + state.listHeight
        if state.isDetailVisible {
            drawRule(row: row, context, into: &buffer)
            drawDetail(context, top: row + 1, into: &buffer)
            row += 4
        }
        drawRule(row: row, context, into: &buffer)
        if state.mode.kind == .edit, let editor = state.editor {
            drawEditor(editor, row: row + 1, context, into: &buffer)
        } else {
            drawFooter(context, row: row + 1, into: &buffer)
            if let message = footerMessage(context) {
                drawMessage(message, footerRow: row + 1, context, into: &buffer)
            }
        }
        switch state.mode {
        case .help: drawHelp(context, into: &buffer)
        case .restartPrompt: drawRestartPrompt(context, into: &buffer)
        case .pick: drawPicker(context, into: &buffer)
        case .history: drawHistory(context, into: &buffer)
        case .profiles, .profileName, .profileDelete: drawProfiles(context, into: &buffer)
        case .expiry: drawExpiryMenu(context, into: &buffer)
        case .apps: drawApps(context, into: &buffer)
        default: break
        }
        return buffer
    }

    /// What every drawing step needs.
    struct Context {
        let state: ConsoleState
        let theme: ConsoleTheme
        let glyphs: Glyphs

        init(state: ConsoleState) {
            self.state = state
            theme = ConsoleTheme(useColor: state.useColor)
            glyphs = state.glyphs
        }

        /// Sanitises registry text for this terminal.
        func clean(_ text: String) -> String { TextSanitizer.sanitize(text, asciiOnly: state.asciiOnly) }

        /// "ON" or "OFF".
        func onOff(_ value: Bool) -> String { value ? "ON" : "OFF" }
    }

    private static func drawSearchLine(_ context: Context, into buffer: inout ScreenBuffer) {
        let state = context.state
        var entries = state.scopeTitles
        var scopes = entries.map { $0.isActive ? "[\($0.title)]" : " \($0.title) " }
        if DisplayWidth.of(scopes.joined(separator: " ")) > state.width / 2 {
            // Narrow terminal: only the active scope.
            entries = entries.filter(\.isActive)
            scopes = entries.map { "[\($0.title)]" }
        }
        let scopeText = scopes.joined(separator: " ")
        let scopeX = state.width - DisplayWidth.of(scopeText) - 1
        var x = 1
        let searching = state.mode.kind == .search
        if searching || !state.query.isEmpty {
            x = buffer.put("/ ", row: 1, column: x, style: context.theme.strong)
            x = buffer.put(context.clean(state.query), row: 1, column: x, maxWidth: max(0, scopeX - x - 2))
            if searching { x = buffer.put(context.glyphs.cursor, row: 1, column: x, style: context.theme.strong) }
        } else {
            x = buffer.put("/ to search", row: 1, column: x, maxWidth: max(0, scopeX - x - 1))
        }
        // How many rows the filter left, when there is room before the scopes.
        if state.isFlat {
            let count = state.rows.count
            let noun = state.query.isEmpty ? (count == 1 ? "flag" : "flags") : (count == 1 ? "match" : "matches")
            let text = "\(count) \(noun)"
            if x + 3 + DisplayWidth.of(text) < scopeX { buffer.put(text, row: 1, column: x + 3) }
        }
        guard scopeX > 8 else { return }
        var scopeColumn = scopeX
        for (entry, text) in zip(entries, scopes) {
            let style = entry.isActive ? context.theme.strong : context.theme.plain
            scopeColumn = buffer.put(text, row: 1, column: scopeColumn, style: style) + 1
        }
    }

    static func drawRule(row: Int, _ context: Context, into buffer: inout ScreenBuffer) {
        buffer.put(String(repeating: context.glyphs.rule, count: buffer.width), row: row, column: 0)
    }

    /// The "terminal too small" screen: the size there is and the size needed, worded as fully as the
    /// terminal allows and wrapped at spaces, so the numbers are never cut (in a 20×5 terminal: "Terminal too
    /// small (20×5): need at least 40×10" on three lines).
    static func tooSmallLines(_ state: ConsoleState) -> [String] {
        let times = state.glyphs.times
        let have = "\(state.width)\(times)\(state.height)"
        let need = "\(ConsoleState.minimumSize.width)\(times)\(ConsoleState.minimumSize.height)"
        let candidates = [
            "Terminal too small (\(have)): need at least \(need). q quits",
            "Terminal too small (\(have)): need at least \(need)",
            "Too small (\(have)): need \(need)",
            "Need \(need), have \(have)",
            "Need \(need)",
            need,
        ]
        for candidate in candidates {
            let fitsWords = candidate.split(separator: " ").allSatisfy { DisplayWidth.of(String($0)) <= state.width }
            let lines = wrap(candidate, width: state.width)
            if fitsWords, lines.count <= state.height { return lines }
        }
        return [need]  // narrower than "40×10": the start of it is all there is room for
    }

    private static func drawFooter(_ context: Context, row: Int, into buffer: inout ScreenBuffer) {
        guard footerMessage(context) == nil else { return }
        buffer.put(" " + footerKeys(context, width: buffer.width - 2), row: row, column: 0)
    }

    /// What the footer says instead of the keys, by priority: the open question (reset every override; quit
    /// with unsaved writes), the one-shot message, the write waiting for the store's lock, the store's error
    /// (the header has room for its start only). `nil`: the keys.
    static func footerMessage(_ context: Context) -> String? {
        let state = context.state
        let dot = " \(context.glyphs.dot) "
        switch state.mode {
        case .confirmReset:
            let count = state.counts.overridden
            return "Reset all \(count) override\(count == 1 ? "" : "s")? y yes  n no"
        case .confirmBulk:
            guard let question = bulkQuestion(context) else { break }
            return question
        case .editRejected:
            guard let rejected = state.rejectedEdit else { break }
            let label = state.flag(forKey: rejected.key).map { context.clean($0.label) } ?? rejected.key
            return "Not saved: \(label) \(context.clean(rejected.reason))" + dot + "e edit again  Esc cancel"
        case .quitWhenSaved:
            let count = state.pendingWrites.count
            var text = "Quitting once \(count == 1 ? "the change is" : "\(count) changes are") saved"
            if let wait = state.storeLockWait {
                text += " (the store is locked by \(context.clean(wait.holder)), \(seconds(wait.waited)))"
            }
            return text + dot + "y quit without saving  Esc stay"
        default:
            break
        }
        if let message = state.statusMessage { return context.clean(message) }
        if let wait = state.storeLockWait {
            let count = state.pendingWrites.count
            return "Saving \(count) change\(count == 1 ? "" : "s"): the store is locked by "
                + context.clean(wait.holder) + " (\(seconds(wait.waited)))" + dot + "retrying until it is released"
        }
        if state.mode.kind == .list, let error = state.status.storeProblem {
            return "Store error: " + context.clean(error)
        }
        return nil
    }

    /// `3 s` (whole seconds waited so far).
    private static func seconds(_ duration: Duration) -> String { "\(duration.components.seconds) s" }

    /// Draws a footer message, wrapped upwards over the detail pane (or the bottom of the list) when it does
    /// not fit on the footer row: never more than 4 lines, nor more than half the screen; paths are shortened
    /// before the end of the message is cut (the reason of an error comes after its path).
    private static func drawMessage(
        _ message: String, footerRow: Int, _ context: Context, into buffer: inout ScreenBuffer
    ) {
        let maxLines = max(1, min(4, (buffer.height - 3) / 2))
        let lines = messageLines(
            message, width: buffer.width - 2, maxLines: maxLines, ellipsis: context.glyphs.ellipsis)
        let top = footerRow - lines.count + 1
        if lines.count > 1 { drawRule(row: top - 1, context, into: &buffer) }
        for (offset, line) in lines.enumerated() {
            buffer.fill(row: top + offset)
            buffer.put(" " + line, row: top + offset, column: 0, style: context.theme.warning)
        }
    }

    /// The keys that matter in the current mode (the footer items of ``KeyBindings`` whose key does something on
    /// the selected row), in table order, dropping the items of the highest priority number (the later one of
    /// equals first) until they fit in `width` columns. A restart prompt too narrow for its items shows them as
    /// `key:word` pairs.
    static func footerKeys(_ context: Context, width: Int = .max) -> String {
        let mode: ConsoleMode.Kind = context.state.mode.kind == .confirmReset ? .list : context.state.mode.kind
        let bindings = KeyBindings.bindings(in: mode).filter {
            $0.footer != nil && footerApplies($0.footerCondition, context.state)
        }
        var items = bindings.map { (text: footerText($0.footer ?? "", context), priority: $0.footerPriority) }
        if mode == .search { items.insert(("type to filter", 0), at: 0) }
        if mode == .restartPrompt, DisplayWidth.of(items.map(\.text).joined(separator: "  ")) > width {
            let compact = bindings.map { binding -> String in
                let words = (binding.footer ?? "").split(separator: " ")
                return binding.keys[0].name + ":" + (words.dropFirst().first.map(String.init) ?? "")
            }
            return compact.joined(separator: " ")
        }
        while DisplayWidth.of(items.map(\.text).joined(separator: "  ")) > width,
            let highest = items.map(\.priority).max(), highest > 0,
            let drop = items.lastIndex(where: { $0.priority == highest })
        {
            items.remove(at: drop)
        }
        return items.map(\.text).joined(separator: "  ")
    }

    /// Whether a footer item's key does something in this state (see ``FooterCondition``).
    static func footerApplies(_ condition: FooterCondition, _ state: ConsoleState) -> Bool {
        let flag = state.selectedFlag
        switch condition {
        case .always: return true
        case .onOnOff: return !state.marks.isEmpty || flag.map { $0.setting?.isBoolean ?? true } == true
        case .onFlippable: return flag.map { $0.setting?.isBoolean ?? true } == true
        case .onSetting: return flag?.setting.map { !$0.isBoolean } == true
        case .onOverride:
            // A stale override's row (an orphan key) has no flag but an override `r` removes.
            return !state.marks.isEmpty || flag?.isOverridden == true
                || (flag == nil && state.showsStale && state.selectedKey != nil)
        case .onOverrideOnly: return flag?.isOverridden == true
        case .onMember: return state.selectedKey != nil && (flag != nil || !state.showsStale)
        case .withServer: return state.hasServer
        }
    }

    /// A footer label with its glyph placeholders filled in.
    private static func footerText(_ label: String, _ context: Context) -> String {
        label.replacingOccurrences(of: "{upDown}", with: context.glyphs.upDown)
            .replacingOccurrences(of: "{space}", with: context.glyphs.space)
    }
}
