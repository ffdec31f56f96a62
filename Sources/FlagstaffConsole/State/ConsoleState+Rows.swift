import Flagstaff

extension ConsoleState {
    /// Re-reads the registry: rebuilds the rows (keeping the cursor on the same flag or group when it is still
    /// listed) and recomputes the header counts. Call after every registry change.
    public mutating func refresh() {
        let features = registry.allFeatures
        var counted = Counts(flags: features.count)
        for feature in features {
            if feature.isOverridden { counted.overridden += 1 }
            if feature.isPendingRestart { counted.pendingRestart += 1 }
        }
        counts = counted
        // Values do not change which rows the tree or an all-scope search shows; skip that work unless flags
        // were added.
        if scope != .all || features.count != builtFlagCount {
            rebuildRows()
        }
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
        let features = registry.allFeatures
        builtFlagCount = features.count
        if query.isEmpty { return ConsoleRows(.features(features.filter { scope.includes($0) })) }
        return ConsoleRows(.results(registry.search(query, scope: scope)))
    }

    /// The tree: root flags first, then each group with its flags and subgroups (collapsed groups hide theirs).
    private mutating func treeRows() -> ConsoleRows {
        builtFlagCount = registry.allFeatures.count
        var result: [ConsoleRow] = []
        result.reserveCapacity(builtFlagCount + registry.groups.count)
        for feature in registry.rootFeatures {
            result.append(.flag(.init(feature: feature, depth: 0, showsGroupPath: false, match: nil)))
        }
        for group in registry.groups { appendGroup(group, depth: 0, to: &result) }
        return ConsoleRows(.tree(result))
    }

    private func appendGroup(_ group: FeatureGroup, depth: Int, to result: inout [ConsoleRow]) {
        let id = group.keyPath.joined(separator: ".")
        let expanded = !collapsedGroups.contains(id)
        result.append(.group(.init(
            id: id, label: group.label, depth: depth, flagCount: Self.flagCount(group), isExpanded: expanded
        )))
        guard expanded else { return }
        for feature in group.features {
            result.append(.flag(.init(feature: feature, depth: depth + 1, showsGroupPath: false, match: nil)))
        }
        for subgroup in group.subgroups { appendGroup(subgroup, depth: depth + 1, to: &result) }
    }

    private static func flagCount(_ group: FeatureGroup) -> Int {
        group.subgroups.reduce(group.features.count) { $0 + flagCount($1) }
    }

    /// Keeps the cursor inside the list and on screen.
    mutating func clampScroll() {
        cursor = min(max(0, cursor), max(0, rows.count - 1))
        let visible = listHeight
        if cursor < scrollOffset { scrollOffset = cursor }
        if cursor >= scrollOffset + visible { scrollOffset = cursor - visible + 1 }
        scrollOffset = min(max(0, scrollOffset), max(0, rows.count - visible))
    }

    /// The restart-requiring flags whose value differs from launch, for the restart prompt.
    func computePendingRestarts() -> [PendingRestart] {
        registry.featuresRequiringRestart.map {
            PendingRestart(key: $0.key, label: $0.label, launchValue: $0.launchValue, currentValue: $0.enabled)
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
