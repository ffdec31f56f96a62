import Flagstaff

extension ConsoleState {
    /// Re-reads every flag: recomputes the header counts and rebuilds the rows (keeping the cursor on the same
    /// flag or group when it is still listed). For when many or unknown flags changed.
    mutating func refreshAll() {
        recount(source.notableStatuses())
        rebuildRows()
    }

    /// Brings the counts and rows up to date after the overrides or remote values of `keys` changed: reads
    /// those flags only, and rebuilds the rows only when flags were registered or a changed flag entered or
    /// left the scope. A change of many keys (a bulk change, an undo of one, a profile) is counted by one lean
    /// pass over every flag and rebuilds the rows when a scope or a query is active; from then on every change is
    /// counted that way (the per-key sets are no longer kept), until the next full refresh.
    mutating func apply(changedKeys keys: Set<String>) {
        guard source.flagCount == builtFlagCount else {
            refreshAll()
            return
        }
        guard keys.count <= bulkRecountThreshold, countsAreIncremental else {
            if keys.count > bulkRecountThreshold {
                applyBulkChange()
                return
            }
            recountEveryFlag()
            if scope != .all || !query.isEmpty, keys.contains(where: { membershipChanges(for: $0) }) { rebuildRows() }
            return
        }
        var membershipChanged = false
        for key in keys {
            guard let status = source.status(forKey: key) else { continue }
            count(status)
            // A query matches a typed setting's value too, so a value change can move it in or out.
            if scope != .all || (!query.isEmpty && !status.isBoolean), !membershipChanged {
                membershipChanged = isListed(key) != isIncluded(status)
            }
        }
        updateCounts()
        if membershipChanged { rebuildRows() }
    }

    /// Counts and rows after a change of many flags: one pass over every flag for the counts, and the rows
    /// listed again when a scope or a query decides which are listed.
    mutating func applyBulkChange() {
        guard source.flagCount == builtFlagCount else {
            refreshAll()
            return
        }
        recountEveryFlag()
        if scope != .all || !query.isEmpty { rebuildRows() }
    }

    /// Counts the overridden and pending flags by one pass over every flag; later changes are counted the same
    /// way (``countsAreIncremental`` stays off).
    private mutating func recountEveryFlag() {
        countsAreIncremental = false
        overriddenKeys = []
        pendingRestartKeys = []
        let notable = source.notableCounts()
        counts.overridden = notable.overridden
        counts.pendingRestart = notable.pendingRestart
    }

    /// Whether the flag's row would come or go with the change just made.
    private func membershipChanges(for key: String) -> Bool {
        guard let status = source.status(forKey: key) else { return false }
        guard scope != .all || !status.isBoolean else { return false }
        return isListed(key) != isIncluded(status)
    }

    private func isListed(_ key: String) -> Bool { rows.firstIndex(ofID: "flag:" + key) != nil }

    private func isIncluded(_ status: ConsoleFlagStatus) -> Bool {
        status.isIncluded(in: scope) && (query.isEmpty || matches(status.key))
    }

    /// Whether the current query matches the flag (scope aside).
    private func matches(_ key: String) -> Bool {
        source.search(query, scope: .all).position(ofKey: key) != nil
    }

    /// Recomputes the counts from every flag's status.
    mutating func recount(_ notable: [ConsoleFlagStatus]) {
        countsAreIncremental = true
        overriddenKeys = []
        pendingRestartKeys = []
        for status in notable { count(status) }
        counts.flags = source.flagCount
        updateCounts()
    }

    private mutating func count(_ status: ConsoleFlagStatus) {
        if status.isOverridden {
            overriddenKeys.insert(status.key)
        } else if !overriddenKeys.isEmpty {
            overriddenKeys.remove(status.key)
        }
        if status.isPendingRestart {
            pendingRestartKeys.insert(status.key)
        } else if !pendingRestartKeys.isEmpty {
            pendingRestartKeys.remove(status.key)
        }
    }

    private mutating func updateCounts() {
        counts.overridden = overriddenKeys.count
        counts.pendingRestart = pendingRestartKeys.count
    }

    /// Rebuilds the rows from the query, scope and collapsed groups, keeping the cursor on the same row.
    mutating func rebuildRows() {
        let selectedID = selectedRow?.id
        let oldCursor = cursor
        rows = isFlat ? flatRows() : treeRows()
        if let selectedID, let index = rows.firstIndex(ofID: selectedID) {
            cursor = index
        } else {
            cursor = min(oldCursor, max(0, rows.count - 1))
        }
        clampScroll()
    }

    /// Rebuilds after the query changed: the best match is selected.
    mutating func rebuildForNewQuery() {
        rows = isFlat ? flatRows() : treeRows()
        cursor = 0
        scrollOffset = 0
        clampScroll()
    }

    /// The flat list: search results (best first) or, without a query, every flag in the scope.
    private mutating func flatRows() -> ConsoleRows {
        builtFlagCount = source.flagCount
        counts.flags = builtFlagCount
        if showsStale { return staleRows() }
        return ConsoleRows(.results(source.search(query, scope: scope), highlighted: !query.isEmpty))
    }

    /// The tree: root flags first, then each group with its flags and subgroups (collapsed groups hide theirs).
    private mutating func treeRows() -> ConsoleRows {
        let outline = source.outline()
        builtFlagCount = source.flagCount
        counts.flags = builtFlagCount
        var tree = ConsoleRows.Tree()
        tree.items.reserveCapacity(builtFlagCount + outline.groups.count)
        appendFlags(outline.rootKeys, depth: 0, to: &tree)
        for group in outline.groups { appendGroup(group, depth: 0, to: &tree) }
        return ConsoleRows(.tree(tree))
    }

    private func appendGroup(_ group: ConsoleOutline.Group, depth: Int, to tree: inout ConsoleRows.Tree) {
        let expanded = !collapsedGroups.contains(group.id)
        tree.items.append(
            .group(
                .init(id: group.id, label: group.label, depth: depth, flagCount: group.flagCount, isExpanded: expanded))
        )
        guard expanded else { return }
        appendFlags(group.keys, depth: depth + 1, to: &tree)
        for subgroup in group.subgroups { appendGroup(subgroup, depth: depth + 1, to: &tree) }
    }

    private func appendFlags(_ keys: any ConsoleKeyList, depth: Int, to tree: inout ConsoleRows.Tree) {
        guard keys.count > 0 else { return }
        let list = Int32(tree.lists.count)
        tree.lists.append(keys)
        for index in 0..<keys.count { tree.items.append(.flag(list: list, index: Int32(index), depth: Int32(depth))) }
    }

    /// Keeps the cursor inside the list and on screen.
    mutating func clampScroll() {
        cursor = min(max(0, cursor), max(0, rows.count - 1))
        let visible = listHeight
        if cursor < scrollOffset { scrollOffset = cursor }
        if cursor >= scrollOffset + visible { scrollOffset = cursor - visible + 1 }
        scrollOffset = min(max(0, scrollOffset), max(0, rows.count - visible))
    }

    /// The restart-requiring flags whose value differs from launch, for the restart prompt, in declaration
    /// order (read afresh: it runs once, when quitting).
    func computePendingRestarts() -> [PendingRestart] {
        source.notableStatuses().filter(\.isPendingRestart).compactMap { status in
            let key = status.key
            return source.flag(forKey: key).map { flag in
                guard let setting = flag.setting else {
                    return PendingRestart(
                        key: key, label: flag.label, launchValue: flag.launchValue, currentValue: flag.value)
                }
                return PendingRestart(
                    key: key, label: flag.label, launchText: setting.shownText(setting.launchValue),
                    currentText: setting.shownText(setting.value))
            }
        }
    }

    /// The session's result, from the flags as they are now.
    /// - Parameters:
    ///   - choice: the restart choice.
    ///   - signal: the signal that ended the session, if any.
    /// - Returns: the outcome ``FeatureConsole/run()`` returns.
    package func outcome(choice: RestartChoice, signal: ConsoleSignal?) -> ConsoleOutcome {
        let statuses = source.notableStatuses()
        let overridden = Set(statuses.lazy.filter(\.isOverridden).map(\.key))
        let changed =
            statuses.filter { $0.overrideValue != openingOverrides[$0.key] }.map(\.key)
            + openingOverrides.keys.filter { !overridden.contains($0) }
        let pending = statuses.filter(\.isPendingRestart).map(\.key)
        return ConsoleOutcome(
            changedKeys: changed.sorted(), restartRequiredKeys: pending.sorted(), restartChoice: choice,
            signal: signal?.number
        )
    }
}

extension SearchScope {
    /// The name shown in the scope bar.
    var title: String {
        switch self {
        case .all: "All"
        case .enabled: "On"
        case .disabled: "Off"
        case .overridden: "Overridden"
        }
    }
}
