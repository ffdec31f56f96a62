import Flagstaff

extension ConsoleState {
    /// Re-reads the registry: rebuilds the rows (keeping the cursor on the same flag or group when it is still
    /// listed) and recomputes the header counts. Call after every registry change.
    public mutating func refresh() {
        counts = Counts(
            flags: registry.allFeatures.count, overridden: registry.overriddenFeatures.count,
            pendingRestart: registry.featuresRequiringRestart.count
        )
        rebuildRows()
    }

    /// Rebuilds the rows from the query, scope and collapsed groups, keeping the cursor on the same row.
    mutating func rebuildRows() {
        let selectedID = selectedRow?.id
        let oldCursor = cursor
        rows = isFlat ? flatRows() : treeRows()
        if let selectedID, let index = rows.firstIndex(where: { $0.id == selectedID }) {
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
    private func flatRows() -> [ConsoleRow] {
        if query.isEmpty {
            return registry.allFeatures.lazy.filter { scope.includes($0) }.map {
                .flag(.init(feature: $0, depth: 0, showsGroupPath: true, match: nil))
            }
        }
        return registry.search(query, scope: scope).map {
            .flag(.init(feature: $0.feature, depth: 0, showsGroupPath: true, match: $0))
        }
    }

    /// The tree: root flags first, then each group with its flags and subgroups (collapsed groups hide theirs).
    private func treeRows() -> [ConsoleRow] {
        var result: [ConsoleRow] = []
        result.reserveCapacity(registry.allFeatures.count + registry.groups.count)
        for feature in registry.rootFeatures {
            result.append(.flag(.init(feature: feature, depth: 0, showsGroupPath: false, match: nil)))
        }
        for group in registry.groups { appendGroup(group, depth: 0, to: &result) }
        return result
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
