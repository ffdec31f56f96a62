/// Flag keys read on demand: building the tree of 100,000 flags reads none of them (a row's key is read when
/// the row is drawn, or while looking for the selected flag after a rebuild).
package protocol ConsoleKeyList: Sendable {
    /// The number of keys.
    var count: Int { get }
    /// The key at `index`.
    func key(at index: Int) -> String
    /// The ordinal (``ConsoleFlagSource/ordinal(forKey:)``) of the flag at `index`, known without a look-up
    /// (`nil` only for a flag not registered).
    func ordinal(at index: Int) -> Int?
}

/// The registry's groups as a tree, with the flags of each by key.
package struct ConsoleOutline: Sendable {
    /// A group and what it contains.
    package struct Group: Sendable {
        /// The key path joined by `.` (the group's identity for collapsing and the cursor).
        package var id: String
        /// The label.
        package var label: String
        /// Keys of the flags directly in the group.
        package var keys: any ConsoleKeyList
        /// Nested groups.
        package var subgroups: [Group]

        /// Creates a group.
        package init(id: String, label: String, keys: any ConsoleKeyList, subgroups: [Group] = []) {
            self.id = id
            self.label = label
            self.keys = keys
            self.subgroups = subgroups
        }

        /// Flags in the group and its subgroups.
        package var flagCount: Int { subgroups.reduce(keys.count) { $0 + $1.flagCount } }
    }

    /// Keys of the flags outside any group.
    package var rootKeys: any ConsoleKeyList
    /// Top-level groups.
    package var groups: [Group]

    /// Creates an outline.
    package init(rootKeys: any ConsoleKeyList, groups: [Group]) {
        self.rootKeys = rootKeys
        self.groups = groups
    }
}
