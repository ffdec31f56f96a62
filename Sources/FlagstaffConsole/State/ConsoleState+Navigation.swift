extension ConsoleState {
    /// Moves the cursor by a number of rows, clamped to the list.
    mutating func move(by delta: Int) {
        move(to: cursor + delta)
    }

    /// Moves the cursor to a row, clamped to the list.
    mutating func move(to index: Int) {
        cursor = min(max(0, index), max(0, rows.count - 1))
        clampScroll()
    }

    /// `←`/`h`: collapses an expanded group, or moves to the enclosing group (of a flag or a collapsed group).
    mutating func collapseOrJumpToGroup() {
        guard let row = selectedRow, !isFlat else { return }
        switch row {
        case .group(let group) where group.isExpanded:
            setSelectedGroupExpanded(false)
        case .group(let group):
            jumpToParent(depth: group.depth)
        case .flag(let flag):
            jumpToParent(depth: flag.depth)
        }
    }

    /// `→`/`l` (expand) and collapse of the selected group; nothing on a flag.
    mutating func setSelectedGroupExpanded(_ expanded: Bool) {
        guard case .group(let group)? = selectedRow, !isFlat, group.isExpanded != expanded else { return }
        if expanded { collapsedGroups.remove(group.id) } else { collapsedGroups.insert(group.id) }
        rebuildRows()
    }

    /// `Enter` on a group flips it.
    mutating func toggleSelectedGroup() {
        guard case .group(let group)? = selectedRow else { return }
        setSelectedGroupExpanded(!group.isExpanded)
    }

    /// Moves up to the nearest group row with a smaller depth than `depth` (a row's enclosing group).
    private mutating func jumpToParent(depth: Int) {
        guard depth > 0 else { return }
        var index = cursor - 1
        while index >= 0 {
            if case .group(let group) = rows[index], group.depth < depth {
                move(to: index)
                return
            }
            index -= 1
        }
    }
}
