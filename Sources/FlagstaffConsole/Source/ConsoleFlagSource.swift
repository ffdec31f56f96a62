import Flagstaff

/// What the console's state reads about the flags it shows: the narrow interface between ``ConsoleState`` and
/// a ``FeatureRegistry`` (``RegistryFlagSource``), so the state can be driven against an in-memory fake.
///
/// Flags are identified by their store key. Reads must be cheap for one key (the layout reads the visible
/// rows' flags on every frame); ``notableStatuses()``, ``outline()`` and ``search(_:scope:)`` cost time proportional
/// to the number of flags and are only called for full rebuilds.
package protocol ConsoleFlagSource: Sendable {
    /// The registry's display name (the header title unless the app gives one).
    var name: String { get }
    /// How many flags there are; it grows when flags are registered at runtime.
    var flagCount: Int { get }
    /// The value facts of every flag that has an override or needs a restart, in declaration order (every
    /// other flag counts as neither): for the header counts, the restart prompt and the outcome.
    func notableStatuses() -> [ConsoleFlagStatus]
    /// One flag's value facts, or `nil` for an unknown key.
    func status(forKey key: String) -> ConsoleFlagStatus?
    /// Everything the list, the detail pane and the restart prompt show about one flag, or `nil`.
    func flag(forKey key: String) -> ConsoleFlag?
    /// The tree: flags outside any group, then the groups in declaration order.
    func outline() -> ConsoleOutline
    /// The flags matching `query` in `scope`, best first (every flag in scope, in declaration order, for an
    /// empty query).
    func search(_ query: String, scope: SearchScope) -> any ConsoleSearchHits
    /// The attached remote sources (status in the header, `Ctrl-R` refreshes them).
    var remoteSources: [any RemoteSource] { get }
    /// The override store's last error, as a message, or `nil`.
    var storeErrorMessage: String? { get }
}

/// The value facts of one flag: enough to count overrides and pending restarts and to apply scopes.
package struct ConsoleFlagStatus: Sendable, Equatable {
    /// The store key.
    package var key: String
    /// The effective value.
    package var value: Bool
    /// The override (`featureDefault` when none).
    package var override: OverrideState
    /// Requires a restart and its value differs from launch.
    package var isPendingRestart: Bool

    /// Creates a status.
    package init(key: String, value: Bool, override: OverrideState, isPendingRestart: Bool) {
        self.key = key
        self.value = value
        self.override = override
        self.isPendingRestart = isPendingRestart
    }

    /// Whether the flag is listed in `scope`.
    package func isIncluded(in scope: SearchScope) -> Bool {
        switch scope {
        case .all: true
        case .enabled: value
        case .disabled: !value
        case .overridden: override != .featureDefault
        }
    }
}

/// Everything the console shows about one flag, read at one moment.
package struct ConsoleFlag: Sendable {
    /// The store key.
    package var key: String
    /// The display label (unsanitised).
    package var label: String
    /// The description, if any (unsanitised).
    package var description: String?
    /// The labels of the enclosing groups, outermost first.
    package var groupPath: [String]
    /// Where the default comes from.
    package var kind: FeatureKind
    /// Whether a change only takes effect after a restart.
    package var requiresRestart: Bool
    /// The effective value, its source and the chain of sources considered.
    package var resolution: Resolution
    /// The value without any override (what `featureDefault` gives).
    package var defaultValue: Bool
    /// The override.
    package var override: OverrideState
    /// The value at launch.
    package var launchValue: Bool

    /// Creates a flag snapshot.
    package init(
        key: String, label: String, description: String? = nil, groupPath: [String] = [], kind: FeatureKind = .static,
        requiresRestart: Bool = false, resolution: Resolution, defaultValue: Bool, override: OverrideState,
        launchValue: Bool
    ) {
        self.key = key
        self.label = label
        self.description = description
        self.groupPath = groupPath
        self.kind = kind
        self.requiresRestart = requiresRestart
        self.resolution = resolution
        self.defaultValue = defaultValue
        self.override = override
        self.launchValue = launchValue
    }

    /// The effective value.
    package var value: Bool { resolution.value }
    /// Whether the flag has an override.
    package var isOverridden: Bool { override != .featureDefault }
}

/// Flag keys read on demand: building the tree of 100,000 flags reads none of them (only the visible rows
/// and the cursor's row are looked at).
package protocol ConsoleKeyList: Sendable {
    /// The number of keys.
    var count: Int { get }
    /// The key at `index`.
    func key(at index: Int) -> String
}

extension Array: ConsoleKeyList where Element == String {
    /// The key at `index`.
    package func key(at index: Int) -> String { self[index] }
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

/// A search's results, best first, read lazily (only the visible rows are built).
package protocol ConsoleSearchHits: Sendable {
    /// The number of results.
    var count: Int { get }
    /// The key of the result at `position`.
    func key(at position: Int) -> String
    /// The matched characters of the result at `position`, per field, as `Character` offsets (empty
    /// without a query).
    func matchedRanges(at position: Int) -> [SearchField: [Range<Int>]]
    /// The position of the flag with `key`, or `nil`.
    func position(ofKey key: String) -> Int?
}
