/// Flag keys with their ordinals, copied out of the registry when the tree is read (a plain value: the state
/// holds it, and two states compare).
package struct ConsoleKeyList: Sendable, Equatable {
    /// The keys, in order.
    package private(set) var keys: [String] = []
    /// Per key, its ordinal (``ConsoleFlagSource/ordinal(forKey:)``), or -1 for a flag not registered.
    private var ordinals: [Int32] = []

    /// No keys.
    package init() {}

    /// Keys with their ordinals (`nil`: not registered).
    package init(keys: [String], ordinals: [Int?]) {
        self.keys = keys
        self.ordinals = ordinals.map { $0.map(Int32.init) ?? -1 }
    }

    /// The number of keys.
    package var count: Int { keys.count }

    /// The key at `index`.
    package func key(at index: Int) -> String { keys[index] }

    /// The ordinal of the flag at `index` (`nil` only for a flag not registered).
    package func ordinal(at index: Int) -> Int? { ordinals[index] < 0 ? nil : Int(ordinals[index]) }

    /// Adds a key.
    package mutating func append(_ key: String, ordinal: Int?) {
        keys.append(key)
        ordinals.append(ordinal.map(Int32.init) ?? -1)
    }

    /// Reserves room for `count` keys.
    package mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        ordinals.reserveCapacity(count)
    }
}

/// The registry's groups as a tree, with the flags of each by key.
package struct ConsoleOutline: Sendable, Equatable {
    /// A group and what it contains.
    package struct Group: Sendable, Equatable {
        /// The key path joined by `.` (the group's identity for collapsing and the cursor).
        package var id: String
        /// The label.
        package var label: String
        /// Keys of the flags directly in the group.
        package var keys: ConsoleKeyList
        /// Nested groups.
        package var subgroups: [Group]

        /// Creates a group.
        package init(id: String, label: String, keys: ConsoleKeyList, subgroups: [Group] = []) {
            self.id = id
            self.label = label
            self.keys = keys
            self.subgroups = subgroups
        }

        /// Flags in the group and its subgroups.
        package var flagCount: Int { subgroups.reduce(keys.count) { $0 + $1.flagCount } }
    }

    /// Keys of the flags outside any group.
    package var rootKeys: ConsoleKeyList
    /// Top-level groups.
    package var groups: [Group]

    /// Creates an outline.
    package init(rootKeys: ConsoleKeyList, groups: [Group]) {
        self.rootKeys = rootKeys
        self.groups = groups
    }
}
