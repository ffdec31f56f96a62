import Flagstaff
import Foundation

/// Undo and redo (`u`, `U`) and the history overlay (`H`).
extension ConsoleState {
    /// Carries out a history key (see ``KeyBindings/historyOverlay``).
    mutating func perform(_ action: HistoryAction) -> [ConsoleEffect] {
        switch action {
        case .step(let redo): return stepHistory(redo: redo)
        case .open: return openHistory()
        case .close: closeHistory()
        case .move(let delta): moveHistorySelection(by: delta)
        case .page(let down): moveHistorySelection(by: down ? historyVisibleCount : -historyVisibleCount)
        case .edge(let last): moveHistorySelection(by: last ? Int.max / 2 : Int.min / 2)
        case .jump: jumpToHistorySelection()
        }
        return []
    }

    /// `u` / `U`: asks for an undo or a redo, performed like any other store write (at once, or once another
    /// process releases the store's lock: meanwhile the footer says who holds it); the result is the footer's
    /// next message.
    mutating func stepHistory(redo: Bool) -> [ConsoleEffect] {
        write(.history(redo: redo))
    }

    /// Reports an undo or redo in the footer: what it changed (`key: old → new`), or why nothing was changed.
    mutating func finishHistoryStep(_ step: HistoryStep) {
        switch step {
        case .done(let redo, let change):
            statusMessage = Self.describe(change, redo: redo, glyphs: glyphs)
        case .refused(_, let reason):
            statusMessage = reason
        }
    }

    /// `Undid the console change of 19:02:10: blueText on → off` (the values as the undo or redo set them),
    /// naming the first three keys of a larger change and counting the others.
    static func describe(_ change: HistoryChange, redo: Bool, glyphs: Glyphs) -> String {
        let arrow = " \(glyphs.rightArrow) "
        let shown = change.entries.prefix(3).map { entry in
            let (from, to) = redo ? (entry.old, entry.new) : (entry.new, entry.old)
            return entry.key + ": " + valueText(from) + arrow + valueText(to)
        }
        var text =
            (redo ? "Redid" : "Undid") + " the \(change.origin.rawValue) change of \(timeText(change.time))"
        if change.entries.count > 1 { text += " (\(change.entries.count) keys)" }
        text += ": " + shown.joined(separator: ", ")
        if change.entries.count > shown.count { text += " and \(change.entries.count - shown.count) more" }
        return text
    }

    /// A journal value as the console shows it: `on`, `off`, `default` (no override), else its JSON summary.
    static func valueText(_ value: OverrideValue?) -> String {
        guard let value else { return "default" }
        if value == .on { return "on" }
        if value == .off { return "off" }
        return value.summary
    }

    /// `2026-11-23 19:02:10` (UTC, as `flagstaff history` prints it).
    static func dateTimeText(_ date: Date) -> String {
        let stamp = JournalTime.text(date)  // 2026-11-23T19:02:10.123Z
        return String(stamp.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// `19:02:10` (UTC).
    static func timeText(_ date: Date) -> String { String(dateTimeText(date).suffix(8)) }

    /// `H`: opens the overlay and asks for the history (it is read by the effect runner).
    mutating func openHistory() -> [ConsoleEffect] {
        mode = .history(HistoryOverlay(contents: HistoryContents(changes: [])))
        return [.loadHistory]
    }

    /// The history arrived: shown from the newest change.
    mutating func showHistory(_ contents: HistoryContents) {
        guard case .history = mode else { return }
        mode = .history(HistoryOverlay(contents: contents))
    }

    /// `Esc`, `H`, `q` in the overlay.
    mutating func closeHistory() {
        mode = .list
    }

    /// How many changes the overlay shows at once (its box, less the title line, the line about unreadable
    /// journal lines when there are any, and a blank line).
    var historyVisibleCount: Int {
        let heading = history?.contents.problems.isEmpty == false ? 3 : 2
        return max(1, ConsoleLayout.BoxMetrics(width: width, height: height).maxLines - heading)
    }

    /// Moves the overlay's selection, scrolling to keep it shown.
    mutating func moveHistorySelection(by delta: Int) {
        guard var overlay = history else { return }
        overlay.move(by: delta, visible: historyVisibleCount)
        mode = .history(overlay)
    }

    /// `Enter` in the overlay: closes it and selects the selected change's (first) flag in the list, clearing
    /// the search and scope, and expanding its groups, when those hide it.
    mutating func jumpToHistorySelection() {
        guard let overlay = history, overlay.contents.changes.indices.contains(overlay.selected) else {
            closeHistory()
            return
        }
        let change = overlay.contents.changes[overlay.selected]
        closeHistory()
        guard let key = change.keys.first(where: isDeclared) else {
            statusMessage =
                "\(change.keys.first ?? "That change") is not a flag or setting of this registry"
            return
        }
        select(key: key)
        if change.keys.count > 1 { statusMessage = "\(key): the first of the change's \(change.keys.count) keys" }
    }

    /// Selects the flag with `key`, making it listed first when the query, the scope or a collapsed group
    /// hides it.
    mutating func select(key: String) {
        let id = "flag:" + key
        if let index = rows.firstIndex(ofID: id) { return move(to: index) }
        if isFlat {
            query = ""
            scope = .all
            rebuildRows()
            if let index = rows.firstIndex(ofID: id) { return move(to: index) }
        }
        collapsedGroups = []
        rebuildRows()
        if let index = rows.firstIndex(ofID: id) { move(to: index) }
    }
}

extension ConsoleState {
    /// Whether the registry declares a flag or setting with `key` (a pass over the tree's keys).
    func isDeclared(_ key: String) -> Bool {
        func lists(_ keys: ConsoleKeyList) -> Bool { keys.keys.contains(key) }
        func holds(_ group: ConsoleOutline.Group) -> Bool {
            lists(group.keys) || group.subgroups.contains(where: holds)
        }
        return lists(outline.rootKeys) || outline.groups.contains(where: holds)
    }
}
