import Flagstaff

extension ConsoleState {
    /// Takes a change of flags in: the counts, status and bisect banner it brings, the changed flags as read for
    /// it (kept when on screen), and the rows listed again when the change can move a flag in or out of them (a
    /// scope or a query is active and a changed flag's membership may differ, many flags changed, or flags were
    /// registered).
    mutating func apply(_ update: FlagsUpdate) {
        counts = update.counts
        take(update.status)
        bisect = update.bisect
        if let outline = update.outline {
            self.outline = outline
            forgetFlags()
            rebuildRows()
            return
        }
        guard let changed = update.changed else {
            forgetFlags()
            if isFlat { rebuildRows() }
            return
        }
        guard !changed.isEmpty else { return }
        let shown = Set(shownKeys())
        var membershipChanged = false
        for flag in changed {
            flags[flag.key] = shown.contains(flag.key) ? flag : nil
            undeclaredKeys.remove(flag.key)
            guard isFlat, !showsStale, !membershipChanged else { continue }
            // A query matches a typed setting's value too, so a value change can move it in or out.
            if !query.isEmpty, !flag.status.isBoolean {
                membershipChanged = true
            } else if scope != .all {
                membershipChanged = isListed(flag.key) != flag.status.isIncluded(in: scope)
            }
        }
        if membershipChanged { rebuildRows() }
    }

    /// Forgets every flag read: they are read again when shown.
    mutating func forgetFlags() {
        flags = [:]
        undeclaredKeys = []
    }

    private func isListed(_ key: String) -> Bool { rows.firstIndex(ofID: "flag:" + key) != nil }

    /// Rebuilds the rows from the query, scope and collapsed groups, keeping the cursor on the same row (the
    /// flat list once its search is answered).
    mutating func rebuildRows() {
        guard !isFlat else {
            rowsOutdated = true
            rowsSelectFirst = false
            return
        }
        rowsOutdated = false
        show(treeRows(), selectingFirst: false)
    }

    /// Rebuilds after the query changed: the best match is selected.
    mutating func rebuildForNewQuery() {
        guard !isFlat else {
            rowsOutdated = true
            rowsSelectFirst = true
            return
        }
        rowsOutdated = false
        show(treeRows(), selectingFirst: true)
    }

    /// Shows new rows: the first selected, or the cursor kept on the row selected before.
    private mutating func show(_ newRows: ConsoleRows, selectingFirst: Bool) {
        let selectedID = selectedRow?.id
        let oldCursor = cursor
        rows = newRows
        if selectingFirst {
            cursor = 0
            scrollOffset = 0
        } else if let selectedID, let index = rows.firstIndex(ofID: selectedID) {
            cursor = index
        } else {
            cursor = min(oldCursor, max(0, rows.count - 1))
        }
        clampScroll()
    }

    /// Takes a search's answer in, when it is for the current query and scope.
    mutating func receive(_ answer: SearchAnswer) {
        if rowsRequest == .search(query: answer.query, scope: answer.scope) { rowsRequest = nil }
        guard rowsOutdated, !showsStale, answer.query == query, answer.scope == scope else { return }
        rowsOutdated = false
        show(ConsoleRows(.results(answer.hits, highlighted: !query.isEmpty)), selectingFirst: rowsSelectFirst)
    }

    /// Takes the stale overrides in (the `Stale` scope's rows: those whose key contains the query, by key).
    mutating func receive(stale: [StaleOverride]) {
        if rowsRequest == .staleOverrides { rowsRequest = nil }
        staleOverrides = Dictionary(stale.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        guard rowsOutdated, showsStale else { return }
        rowsOutdated = false
        let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
        let listed = stale.filter { needle.isEmpty || $0.key.lowercased().contains(needle) }
        let hits = ConsoleSearchHits(keys: listed.map(\.key), ordinals: listed.map(\.ordinal))
        show(ConsoleRows(.results(hits, highlighted: false)), selectingFirst: rowsSelectFirst)
    }

    /// Takes the matched characters of search results on screen in, when they are for the rows shown.
    mutating func receive(matches: [Int: [SearchField: [Range<Int>]]], query: String, scope: SearchScope) {
        if case .matches(query, scope, _) = matchesRequest { matchesRequest = nil }
        guard !rowsOutdated, !showsStale, query == self.query, scope == self.scope else { return }
        rows.take(matchedRanges: matches)
    }

    /// Takes flags read in; the keys not among them are not declared by the registry.
    mutating func receive(keys: [String], flags read: [ConsoleFlag]) {
        let wanted = Set(shownKeys())
        flags = flags.filter { wanted.contains($0.key) }
        for flag in read { flags[flag.key] = flag }
        for key in keys where flags[key] == nil { undeclaredKeys.insert(key) }
    }

    /// The reads the state needs after an event: the rows when they wait for a search (or the stale overrides),
    /// else the flags on screen not read yet.
    mutating func reads() -> [ConsoleEffect] {
        if rowsOutdated {
            let read: ConsoleRead = showsStale ? .staleOverrides : .search(query: query, scope: scope)
            guard rowsRequest != read else { return [] }
            rowsRequest = read
            return [.read(read)]
        }
        let missing = shownKeys().filter { flags[$0] == nil && !undeclaredKeys.contains($0) }
        return (missing.isEmpty ? [] : [.read(.flags(missing))]) + matchesReads()
    }

    /// The read of the matched characters of the search results on screen not read yet (none without a query).
    private mutating func matchesReads() -> [ConsoleEffect] {
        guard let hits = rows.searchHits else { return [] }
        let end = min(rows.count, scrollOffset + listHeight)
        let missing = (scrollOffset..<max(scrollOffset, end)).filter { !hits.hasMatchedRanges(at: $0) }
        guard !missing.isEmpty else { return [] }
        let read = ConsoleRead.matches(query: query, scope: scope, positions: missing)
        guard matchesRequest != read else { return [] }
        matchesRequest = read
        return [.read(read)]
    }

    /// The keys of the flags on screen: the visible rows, the selection, and those an overlay names.
    func shownKeys() -> [String] {
        var keys: [String] = []
        let end = min(rows.count, scrollOffset + listHeight)
        if scrollOffset < end {
            for index in scrollOffset..<end { if let key = rows[index].key { keys.append(key) } }
        }
        for key in [selectedKey, editor?.key, picker?.key, rejectedEdit?.key, expiryMenu?.key] {
            if let key, !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The tree: root flags first, then each group with its flags and subgroups (collapsed groups hide theirs).
    private func treeRows() -> ConsoleRows {
        var tree = ConsoleRows.Tree()
        tree.items.reserveCapacity(counts.flags + outline.groups.count)
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

    private func appendFlags(_ keys: ConsoleKeyList, depth: Int, to tree: inout ConsoleRows.Tree) {
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

    /// The restart prompt's entries for the restart-requiring flags whose value differs from launch.
    static func pendingRestarts(_ flags: [ConsoleFlag]) -> [PendingRestart] {
        flags.map { flag in
            guard let setting = flag.setting else {
                return PendingRestart(
                    key: flag.key, label: flag.label, launchValue: flag.launchValue, currentValue: flag.value)
            }
            return PendingRestart(
                key: flag.key, label: flag.label, launchText: setting.shownText(setting.launchValue),
                currentText: setting.shownText(setting.value))
        }
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
