import Flagstaff

/// One row of the console's list: a group header or a flag.
package enum ConsoleRow: Sendable, Equatable {
    /// A group header in the tree.
    case group(GroupRow)
    /// A flag, in the tree or in the flat (searched / scoped) list.
    case flag(FlagRow)

    /// A group header.
    package struct GroupRow: Sendable, Equatable {
        /// The group's key path joined with `.` (stable identity for collapse state and the cursor).
        package var id: String
        /// The group's label.
        package var label: String
        /// Nesting depth, 0 for top-level groups.
        package var depth: Int
        /// Number of flags in the group and its subgroups.
        package var flagCount: Int
        /// Whether the group's children are shown.
        package var isExpanded: Bool
    }

    /// A flag row: which flag and where; its values are read from the source when drawn.
    package struct FlagRow: Sendable, Equatable {
        /// The flag's store key.
        package var key: String
        /// Nesting depth (number of enclosing groups shown in the tree; 0 in the flat list).
        package var depth: Int
        /// `true` in the flat list, where the row shows the flag's group path before its label.
        package var showsGroupPath: Bool
        /// The characters the search matched, per field, for highlighting (`nil` without a query).
        package var matchedRanges: [SearchField: [Range<Int>]]?
    }

    /// A stable identity for keeping the cursor on the same row across rebuilds.
    package var id: String {
        switch self {
        case .group(let group): "group:" + group.id
        case .flag(let flag): "flag:" + flag.key
        }
    }

    /// The flag's key, for a flag row.
    package var key: String? {
        if case .flag(let flag) = self { return flag.key }
        return nil
    }
}
