import Flagstaff

/// Marks (`m`, `M`, `Esc`) and the changes `o`, `x` and `r` make to every marked flag at once.
extension ConsoleState {
    /// Above this many flags a change to the marked flags asks y/n first.
    package static let bulkConfirmationThreshold = 20

    /// `m`: marks the selected flag, or unmarks it, and moves to the next row (so a run of rows is marked by
    /// pressing `m` repeatedly).
    mutating func toggleSelectedMark() {
        guard selectedKey != nil else {
            statusMessage = rows.isEmpty ? "No flag selected" : "Marks are for flags (this row is a group)"
            return
        }
        guard let ordinal = rows.ordinal(at: cursor) else {
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
        marks.reserveCapacity(upTo: counts.flags)
        rows.forEachOrdinal { ordinal in
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

    /// Whether the row at `index` is a marked flag.
    package func isMarked(row index: Int) -> Bool {
        !marks.isEmpty && rows.ordinal(at: index).map(marks.contains) == true
    }

    /// `o`, `x` or `r` with marks: the change to every marked flag, applied at once, or after a y/n question
    /// when it changes more than ``bulkConfirmationThreshold`` flags.
    ///
    /// `o` and `x` act on flags and on/off settings and leave other settings alone (they are counted in the
    /// message); `r` removes the override of every marked flag and setting. Flags whose value is fixed at launch
    /// are left alone. The change is one store write, so one undo step. Which marked members it acts on is read
    /// first (``ConsoleRead/bulkTargets(_:_:)``); ``changeMarked(with:)`` goes on with the answer.
    func changeMarked(_ kind: BulkChange.Kind) -> [ConsoleEffect] {
        [.read(.bulkTargets(kind, marks))]
    }

    /// A change to the marked flags, with the members it acts on: applied, or asked about first.
    mutating func changeMarked(with change: BulkChange) -> [ConsoleEffect] {
        guard !change.targets.members.isEmpty else {
            statusMessage = "Nothing to change: " + (change.skippedNote ?? "no marked flag is listed in this registry")
            return []
        }
        if change.targets.members.count > Self.bulkConfirmationThreshold {
            mode = .confirmBulk(change)
            return []
        }
        return applyBulk(change)
    }

    /// `y` in the bulk question.
    mutating func confirmBulk() -> [ConsoleEffect] {
        let change = pendingBulk
        mode = .list
        guard let change else { return [] }
        return applyBulk(change)
    }

    /// Any other key in the bulk question.
    mutating func cancelBulk() {
        mode = .list
        statusMessage = "Cancelled: nothing was changed"
    }

    /// Writes the change; the footer says what it changed once it is saved (members already at that value by
    /// default get no override and are not counted as changed).
    private mutating func applyBulk(_ change: BulkChange) -> [ConsoleEffect] {
        // Checked as it was built: `on`/`off` only for on/off members, or removals.
        write(
            .members(change.targets.members, edit: OverrideEdit(change.value)),
            savedNote: .bulk(change, dot: " \(glyphs.dot) "))
    }
}

extension ConsoleRows {
    /// Calls `body` with the ordinal of every flag row that has one, in order, without making the rows.
    func forEachOrdinal(_ body: (Int) -> Void) {
        switch storage {
        case .tree(let tree):
            for item in tree.items {
                guard case .flag(let list, let index, _) = item else { continue }
                if let ordinal = tree.lists[Int(list)].ordinal(at: Int(index)) { body(ordinal) }
            }
        case .results(let results, _):
            for position in 0..<results.count {
                if let ordinal = results.ordinal(at: position) { body(ordinal) }
            }
        }
    }

    /// The ordinal of the flag at `position`, or `nil` for a group or a key the registry does not declare.
    func ordinal(at position: Int) -> Int? {
        guard indices.contains(position) else { return nil }
        switch storage {
        case .tree(let tree):
            guard case .flag(let list, let index, _) = tree.items[position] else { return nil }
            return tree.lists[Int(list)].ordinal(at: Int(index))
        case .results(let results, _):
            return results.ordinal(at: position)
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
    mutating func performMark(_ action: ConsoleAction) -> [ConsoleEffect] {
        switch action {
        case .toggleMark: toggleSelectedMark()
        case .markAllListed: markAllListed()
        case .clearSearchOrMarks: clearSearchOrMarks()
        case .confirmBulkChange: return confirmBulk()
        default: break
        }
        return []
    }
}
