import Flagstaff

/// Marks (`m`, `M`, `Esc`) and the changes `o`, `x` and `r` make to every marked flag at once.
extension ConsoleState {
    /// Above this many flags a change to the marked flags asks y/n first.
    package static let bulkConfirmationThreshold = 20

    /// `m`: marks the selected flag, or unmarks it, and moves to the next row (so a run of rows is marked by
    /// pressing `m` repeatedly).
    mutating func toggleSelectedMark() {
        guard let key = selectedKey else {
            statusMessage = rows.isEmpty ? "No flag selected" : "Marks are for flags (this row is a group)"
            return
        }
        guard let ordinal = source.ordinal(forKey: key) else {
            statusMessage = "Marks are for flags of this registry (this override's key is not one)"
            return
        }
        if !marks.remove(ordinal) { marks.insert(ordinal) }
        move(by: 1)
    }

    /// `M`: marks every flag listed now (the search result, the scope, or the expanded tree).
    mutating func markAllListed() {
        let before = marks.count
        var listed = 0
        marks.reserveCapacity(upTo: source.flagCount)
        rows.forEachOrdinal(lookingUp: source.ordinal(forKey:)) { ordinal in
            listed += 1
            marks.insert(ordinal)
        }
        guard listed > 0 else {
            statusMessage = "No flag listed to mark"
            return
        }
        let added = marks.count - before
        let noun = listed == 1 ? "flag" : "flags"
        statusMessage =
            "Marked \(listed) listed \(noun)" + (added < listed ? " (\(listed - added) already marked)" : "")
            + " \(glyphs.dot) \(marks.count) marked"
    }

    /// `Esc` in the list: clears the search when there is one (the marks stay: a second `Esc` clears them),
    /// otherwise clears the marks.
    mutating func clearSearchOrMarks() {
        if !query.isEmpty {
            setQuery("")
            if !marks.isEmpty { statusMessage = "\(marks.count) marked \(glyphs.dot) Esc again clears the marks" }
            return
        }
        guard !marks.isEmpty else { return }
        statusMessage = "Cleared \(marks.count) mark\(marks.count == 1 ? "" : "s")"
        marks = MemberSet()
    }

    /// The keys of the marked flags and settings.
    package var markedKeys: Set<String> {
        var keys: Set<String> = []
        marks.forEach { ordinal in
            if let key = source.key(atOrdinal: ordinal) { keys.insert(key) }
        }
        return keys
    }

    /// Whether the flag with `key` is marked.
    package func isMarked(key: String) -> Bool {
        !marks.isEmpty && source.ordinal(forKey: key).map(marks.contains) == true
    }

    /// `o`, `x` or `r` with marks: the change to every marked flag, applied at once, or after a y/n question
    /// when it changes more than ``bulkConfirmationThreshold`` flags.
    ///
    /// `o` and `x` act on flags and on/off settings and leave other settings alone (they are counted in the
    /// message); `r` removes the override of every marked flag and setting. Flags whose value is fixed at launch
    /// are left alone. The change is one store write, so one undo step.
    mutating func changeMarked(_ kind: BulkChange.Kind) -> [ConsoleEffect] {
        let change = BulkChange(kind: kind, targets: source.bulkTargets(of: marks, onOffOnly: kind != .reset))
        guard !change.targets.members.isEmpty else {
            statusMessage = "Nothing to change: " + (change.skippedNote ?? "no marked flag is listed in this registry")
            return []
        }
        if change.targets.members.count > Self.bulkConfirmationThreshold {
            pendingBulk = change
            mode = .confirmBulk
            return []
        }
        return applyBulk(change)
    }

    /// `y` in the bulk question.
    mutating func confirmBulk() -> [ConsoleEffect] {
        mode = .list
        guard let change = pendingBulk else { return [] }
        pendingBulk = nil
        return applyBulk(change)
    }

    /// Any other key in the bulk question.
    mutating func cancelBulk() {
        mode = .list
        pendingBulk = nil
        statusMessage = "Cancelled: nothing was changed"
    }

    private mutating func applyBulk(_ change: BulkChange) -> [ConsoleEffect] {
        let dot = " \(glyphs.dot) "
        statusMessage = change.summary(done: true) + (change.skippedNote.map { dot + $0 } ?? "") + dot + "u undoes it"
        // Checked as it was built: `on`/`off` only for on/off members, or removals.
        return [.setOnOffValue(change.value, members: change.targets.members)]
    }
}

extension ConsoleRows {
    /// Calls `body` with the ordinal of every flag row that has one, in order, without making the rows: as the
    /// rows' lists know it, else by looking the key up with `lookUp`.
    func forEachOrdinal(lookingUp lookUp: (String) -> Int?, _ body: (Int) -> Void) {
        switch storage {
        case .tree(let tree):
            for item in tree.items {
                guard case .flag(let list, let index, _) = item else { continue }
                let keys = tree.lists[Int(list)]
                if let ordinal = keys.ordinal(at: Int(index)) ?? lookUp(keys.key(at: Int(index))) { body(ordinal) }
            }
        case .results(let results, _):
            for position in 0..<results.count {
                if let ordinal = results.ordinal(at: position) ?? lookUp(results.key(at: position)) { body(ordinal) }
            }
        }
    }
}

extension BulkChange.Kind {
    /// The bulk change an action makes when flags are marked (`o`, `x`, `r`), or `nil`.
    init?(_ action: ConsoleAction) {
        switch action {
        case .force(let on): self = on ? .forceOn : .forceOff
        case .reset: self = .reset
        default: return nil
        }
    }
}

extension ConsoleState {
    /// Carries out the actions of marks, the bulk question, undo/redo and the history overlay.
    mutating func performMarkOrHistory(_ action: ConsoleAction) -> [ConsoleEffect] {
        switch action {
        case .toggleMark: toggleSelectedMark()
        case .markAllListed: markAllListed()
        case .clearSearchOrMarks: clearSearchOrMarks()
        case .confirmBulkChange: return confirmBulk()
        case .stepHistory(let redo): return stepHistory(redo: redo)
        case .openHistory: return openHistory()
        case .closeHistory: closeHistory()
        case .moveHistory(let delta): moveHistorySelection(by: delta)
        case .pageHistory(let down): moveHistorySelection(by: down ? historyVisibleCount : -historyVisibleCount)
        case .historyEdge(let last): moveHistorySelection(by: last ? Int.max / 2 : Int.min / 2)
        case .jumpFromHistory: jumpToHistorySelection()
        default: break
        }
        return []
    }
}
