import Flagstaff

/// One row of the console's list: a group header or a flag.
public enum ConsoleRow: Sendable {
    /// A group header in the tree.
    case group(GroupRow)
    /// A flag, in the tree or in the flat (searched / scoped) list.
    case flag(FlagRow)

    /// A group header.
    public struct GroupRow: Sendable {
        /// The group's key path joined with `.` (stable identity for collapse state and the cursor).
        public var id: String
        /// The group's label.
        public var label: String
        /// Nesting depth, 0 for top-level groups.
        public var depth: Int
        /// Number of flags in the group and its subgroups.
        public var flagCount: Int
        /// Whether the group's children are shown.
        public var isExpanded: Bool
    }

    /// A flag row.
    public struct FlagRow: Sendable {
        /// The flag.
        public var feature: AnyFeature
        /// Nesting depth (number of enclosing groups shown in the tree; 0 in the flat list).
        public var depth: Int
        /// `true` in the flat list, where the row shows the flag's group path before its label.
        public var showsGroupPath: Bool
        /// The search match that put the row here, for highlighting (`nil` without a query).
        public var match: SearchResult?
    }

    /// A stable identity for keeping the cursor on the same row across rebuilds.
    public var id: String {
        switch self {
        case let .group(group): "group:" + group.id
        case let .flag(flag): "flag:" + flag.feature.key
        }
    }

    /// The flag of a flag row.
    public var feature: AnyFeature? {
        if case let .flag(flag) = self { return flag.feature }
        return nil
    }
}
