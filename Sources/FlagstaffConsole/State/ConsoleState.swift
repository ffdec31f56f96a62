import Flagstaff
import Foundation

/// Everything the console shows, as a value: the pure core of the console.
///
/// Every input arrives as a ``ConsoleEvent`` through ``update(_:)``, which changes the state and returns the
/// ``ConsoleEffect``s the shell must perform (store writes, reads, repaints, suspending, quitting). The state
/// holds what it shows — the rows, the flags on screen, the counts, the remote and store status, the time —
/// and never reads the registry or a clock: what it needs to know it asks for (``ConsoleEffect/read(_:)``), and
/// the answer comes back as an event. ``ConsoleLayout`` renders the state into a ``ScreenBuffer``. No terminal
/// is involved.
package struct ConsoleState: Sendable, Equatable {
    /// The smallest terminal the console draws in; below it only one line asking for more room is shown.
    package static let minimumSize = (width: 40, height: 10)

    /// The title after "Flagstaff ·" in the header (the registry's name unless the embedding app gives one).
    package var title: String
    /// Whether colours are drawn.
    package var useColor: Bool
    /// Whether only ASCII may be drawn (no UTF-8 locale).
    package var asciiOnly: Bool
    /// Terminal columns.
    package internal(set) var width: Int
    /// Terminal rows.
    package internal(set) var height: Int
    /// The tree of every flag (its key lists), as last read.
    package internal(set) var outline: ConsoleOutline
    /// The list's rows, in display order.
    package internal(set) var rows = ConsoleRows.empty
    /// Whether ``rows`` wait for a read (a search, or the stale overrides) after the query or scope changed.
    var rowsOutdated = false
    /// The read asked for the rows and not yet answered.
    var rowsRequest: ConsoleRead?
    /// The read asked for the matched characters of the search results on screen and not yet answered.
    var matchesRequest: ConsoleRead?
    /// Whether the rows, once read, select their first row (a new query) rather than the flag selected before.
    var rowsSelectFirst = false
    /// The flags on screen (the visible rows, the selection, the one being edited), as last read, by key.
    package internal(set) var flags: [String: ConsoleFlag] = [:]
    /// Keys asked for that the registry does not declare (orphan overrides in the `Stale` scope).
    var undeclaredKeys: Set<String> = []
    /// The remote sources' and the store's status.
    package internal(set) var status: ConsoleStatus
    /// The registry's date and time at the last tick: what expiry is measured against.
    package internal(set) var now: Date
    /// Index of the selected row in ``rows`` (0 when the list is empty).
    package internal(set) var cursor = 0
    /// Index of the first row shown.
    package internal(set) var scrollOffset = 0
    /// Ids (key paths joined by `.`) of the collapsed groups; every group starts expanded.
    package internal(set) var collapsedGroups: Set<String> = []
    /// The search query (the filter stays while it is non-empty, also after `Enter`).
    package internal(set) var query = ""
    /// The current mode, with the data of the overlay or question it shows.
    package internal(set) var mode: ConsoleMode = .list
    /// The scope filter.
    package internal(set) var scope: SearchScope = .all
    /// Whether the detail pane is wanted (it shows only when the terminal is tall enough).
    package internal(set) var showDetail = true
    /// A one-shot message shown in the footer until the next key.
    package internal(set) var statusMessage: String?
    /// The signal a quit asked for meanwhile ends with (`SIGINT` waiting for the restart check).
    var quitSignal: ConsoleSignal?
    /// Store writes asked for and not yet reported saved or failed, oldest first (the runner reports them in
    /// this order). Their flags show "saving" until then.
    package internal(set) var pendingWrites: [StoreWrite] = []
    /// What each of ``pendingWrites`` changes, said in the footer once it is saved (`nil`: nothing to say).
    var pendingWriteNotes: [SavedNote?] = []
    /// Who holds the store's lock while the oldest pending write waits for it (`nil` when no write waits).
    package internal(set) var storeLockWait: StoreLockWait?
    /// The marked flags and settings (`m`, `M`) by ordinal (``ConsoleFlagSource/ordinal(forKey:)``); with marks,
    /// `o`, `x` and `r` act on all of them.
    package internal(set) var marks = MemberSet()
    /// Whether the `Stale` scope (after `Overridden`) is active: the doctor's orphans, no-ops and expired
    /// overrides; ``scope`` is then `.all`.
    package internal(set) var showsStale = false
    /// The stale overrides listed while ``showsStale``, by key.
    package internal(set) var staleOverrides: [String: StaleOverride] = [:]
    /// The bisect session on the store, as the banner shows it, or `nil` when none is active.
    package internal(set) var bisect: BisectBanner?
    /// Header counts, as the last change reported them.
    package internal(set) var counts = Counts()
    /// The overrides when the console opened (only overridden flags and settings, as JSON): "changed" and the
    /// restart prompt's undo.
    package let openingOverrides: [String: OverrideValue]

    /// The header's counts.
    package struct Counts: Sendable, Equatable {
        /// All flags.
        package var flags = 0
        /// Flags whose override is not `featureDefault`.
        package var overridden = 0
        /// Restart-requiring flags whose value differs from launch.
        package var pendingRestart = 0
    }

    /// Creates the state from what the console opened on; the flags on screen are asked for by the first event
    /// (``ConsoleEvent/opened``).
    /// - Parameters:
    ///   - start: the counts, the tree and the status when the console opened.
    ///   - title: the header title; the registry's name when `nil`.
    ///   - width: terminal columns.
    ///   - height: terminal rows.
    ///   - useColor: whether colours are drawn.
    ///   - asciiOnly: whether only ASCII may be drawn.
    ///   - showDetail: whether the detail pane starts open.
    package init(
        start: ConsoleStart, title: String? = nil, width: Int = 100, height: Int = 30, useColor: Bool = true,
        asciiOnly: Bool = false, showDetail: Bool = true
    ) {
        self.title = title ?? start.name
        self.width = width
        self.height = height
        self.useColor = useColor
        self.asciiOnly = asciiOnly
        self.showDetail = showDetail
        outline = start.outline
        status = start.status
        now = start.now
        counts = start.counts
        openingOverrides = start.openingOverrides
        bisect = start.bisect
        rebuildRows()
    }

    /// The glyph set for the current locale.
    package var glyphs: Glyphs { asciiOnly ? .ascii : .unicode }

    /// Whether the terminal is below ``minimumSize``.
    package var isTooSmall: Bool { width < Self.minimumSize.width || height < Self.minimumSize.height }

    /// Whether the detail pane is shown (wanted, and at least 20 rows).
    package var isDetailVisible: Bool { showDetail && height >= 20 }

    /// Rows available to the list.
    package var listHeight: Int { max(1, height - (isDetailVisible ? 9 : 5) - bannerHeight) }

    /// Rows the bisect banner takes above the list (0 without an active bisect).
    package var bannerHeight: Int { bisect == nil ? 0 : 1 }

    /// Whether the list is flat (a query or a scope is active) rather than a tree.
    package var isFlat: Bool { !query.isEmpty || scope != .all || showsStale }

    /// The selected row, if any.
    package var selectedRow: ConsoleRow? { rows.indices.contains(cursor) ? rows[cursor] : nil }

    /// The key of the selected flag, if the selected row is a flag.
    package var selectedKey: String? { selectedRow?.key }

    /// The selected flag, as last read, if the selected row is a flag of the registry.
    package var selectedFlag: ConsoleFlag? { selectedKey.flatMap(flag(forKey:)) }

    /// A flag on screen, as last read (`nil` for a key the registry does not declare, or one not read yet).
    package func flag(forKey key: String) -> ConsoleFlag? { flags[key] }

    /// The override the newest pending write gives a flag, while that write has not been saved and would
    /// change the flag's override (`R` waiting for the lock marks only the overridden flags).
    package func unsavedOverride(for flag: ConsoleFlag) -> OverrideState? {
        guard flag.setting == nil else { return nil }
        for write in pendingWrites.reversed() {
            if let state = write.override(forKey: flag.key, ordinal: flag.ordinal) {
                return state == flag.override ? nil : state
            }
        }
        return nil
    }

    /// For a typed setting: what the newest pending write does to its override, while that write has not been
    /// saved and would change the setting's override.
    package func unsavedChange(for flag: ConsoleFlag) -> OverrideEdit? {
        guard let setting = flag.setting else { return nil }
        for write in pendingWrites.reversed() {
            if let change = write.change(forKey: flag.key, ordinal: flag.ordinal) {
                return change.value == setting.override ? nil : change
            }
        }
        return nil
    }
}

/// What the footer says once a store write is saved.
enum SavedNote: Sendable, Equatable {
    /// This text.
    case text(String)
    /// A change to the marked flags: what it changed.
    case bulk(BulkChange, dot: String)

    /// The text.
    var text: String {
        switch self {
        case .text(let text): text
        case .bulk(let change, let dot): change.savedMessage(dot: dot)
        }
    }
}

/// The choice picker of an enum setting.
package struct ChoicePicker: Sendable, Equatable {
    /// The store key of the setting.
    package var key: String
    /// The setting's label (unsanitised).
    package var label: String
    /// The choices, in declaration order.
    package var choices: [String]
    /// The index of the highlighted choice.
    package var selected: Int
    /// The index of the current value, if it is one of the choices.
    package var current: Int?
}

/// An external editor's result that is not a valid value: kept so the editor can reopen on it.
package struct RejectedEdit: Sendable, Equatable {
    /// The store key of the setting.
    package var key: String
    /// The file's text as the editor left it.
    package var text: String
    /// Why it is not a valid value.
    package var reason: String
}
