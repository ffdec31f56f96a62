import Flagstaff

/// Everything the console shows, as a value: the pure core of the console.
///
/// The state reads the registry (flags, values, search) but never writes it: key presses go through
/// ``handle(_:)``, which updates the state and returns ``ConsoleEffect``s for the shell to perform. After the
/// registry changes (an effect, another process, a remote update) the shell calls ``refresh()``, which
/// rebuilds the rows and keeps the cursor on the same flag. ``ConsoleLayout`` renders the state into a
/// ``ScreenBuffer``. No terminal is involved, so all of it is testable directly.
public struct ConsoleState: Sendable {
    /// The smallest terminal the console draws in; below it only one line asking for more room is shown.
    public static let minimumSize = (width: 40, height: 10)

    /// The registry shown.
    public let registry: FeatureRegistry
    /// The title after "Flagstaff ·" in the header (the registry's name unless the embedding app gives one).
    public var title: String
    /// Whether colours are drawn.
    public var useColor: Bool
    /// Whether only ASCII may be drawn (no UTF-8 locale).
    public var asciiOnly: Bool
    /// Terminal columns.
    public internal(set) var width: Int
    /// Terminal rows.
    public internal(set) var height: Int
    /// The list's rows, in display order.
    public internal(set) var rows = ConsoleRows.empty
    /// Index of the selected row in ``rows`` (0 when the list is empty).
    public internal(set) var cursor = 0
    /// Index of the first row shown.
    public internal(set) var scrollOffset = 0
    /// Ids (key paths joined by `.`) of the collapsed groups; every group starts expanded.
    public internal(set) var collapsedGroups: Set<String> = []
    /// The search query (the filter stays while it is non-empty, also after `Enter`).
    public internal(set) var query = ""
    /// The current mode.
    public internal(set) var mode: ConsoleMode = .list
    /// The scope filter.
    public internal(set) var scope: SearchScope = .all
    /// Whether the detail pane is wanted (it shows only when the terminal is tall enough).
    public internal(set) var showDetail = true
    /// The first help entry shown (the help overlay scrolls when the terminal is short).
    public internal(set) var helpOffset = 0
    /// A one-shot message shown in the footer until the next key.
    public internal(set) var statusMessage: String?
    /// The flags listed by the restart prompt.
    public internal(set) var pendingRestarts: [PendingRestart] = []
    /// Header counts, recomputed on ``refresh()`` (not on each search keystroke).
    public internal(set) var counts = Counts()
    /// The number of flags the rows were built from (a change means flags were registered at runtime).
    var builtFlagCount = -1

    /// The header's counts.
    public struct Counts: Sendable, Equatable {
        /// All flags.
        public var flags = 0
        /// Flags whose override is not `featureDefault`.
        public var overridden = 0
        /// Restart-requiring flags whose value differs from launch.
        public var pendingRestart = 0
    }

    /// Creates the state for a registry and builds its rows.
    /// - Parameters:
    ///   - registry: the flags to show.
    ///   - title: the header title; the registry's name when `nil`.
    ///   - width: terminal columns.
    ///   - height: terminal rows.
    ///   - useColor: whether colours are drawn.
    ///   - asciiOnly: whether only ASCII may be drawn.
    public init(
        registry: FeatureRegistry, title: String? = nil, width: Int = 100, height: Int = 30, useColor: Bool = true,
        asciiOnly: Bool = false
    ) {
        self.registry = registry
        self.title = title ?? registry.name
        self.width = width
        self.height = height
        self.useColor = useColor
        self.asciiOnly = asciiOnly
        refresh()
    }

    /// The glyph set for the current locale.
    public var glyphs: Glyphs { asciiOnly ? .ascii : .unicode }

    /// Whether the terminal is below ``minimumSize``.
    public var isTooSmall: Bool { width < Self.minimumSize.width || height < Self.minimumSize.height }

    /// Whether the detail pane is shown (wanted, and at least 20 rows).
    public var isDetailVisible: Bool { showDetail && height >= 20 }

    /// Rows available to the list.
    public var listHeight: Int { max(1, height - (isDetailVisible ? 9 : 5)) }

    /// Whether the list is flat (a query or a scope is active) rather than a tree.
    public var isFlat: Bool { !query.isEmpty || scope != .all }

    /// The selected row, if any.
    public var selectedRow: ConsoleRow? { rows.indices.contains(cursor) ? rows[cursor] : nil }

    /// The selected flag, if the selected row is a flag.
    public var selectedFeature: AnyFeature? { selectedRow?.feature }
}
