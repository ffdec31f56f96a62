import Flagstaff
import Foundation

/// Something the state needs to know about the flags, asked for with ``ConsoleEffect/read(_:)``: the shell reads
/// it (``ConsoleFeed``) and feeds the answer back as an event. The state never reads the registry itself.
package enum ConsoleRead: Sendable, Equatable {
    /// The flags matching a query in a scope, best first: answered by ``ConsoleEvent/searched(_:)``.
    case search(query: String, scope: SearchScope)
    /// The overrides the store doctor finds stale: answered by ``ConsoleEvent/staleOverridesRead(_:)``.
    case staleOverrides
    /// Everything the list and the detail pane show about these flags: answered by
    /// ``ConsoleEvent/flagsRead(keys:flags:)``.
    case flags([String])
    /// The restart-requiring flags whose value differs from launch (quitting): answered by
    /// ``ConsoleEvent/pendingRestartsRead(_:)``.
    case pendingRestarts
    /// Which marked members a change to the marked flags acts on: answered by ``ConsoleEvent/bulkTargetsRead(_:)``.
    case bulkTargets(BulkChange.Kind, MemberSet)
    /// The matched characters of the search results at `positions` (those on screen) for `query` in `scope`:
    /// answered by ``ConsoleEvent/matchesRead(_:query:scope:)`` for every position asked.
    case matches(query: String, scope: SearchScope, positions: [Int])
    /// The remote sources' and the store's status: answered by ``ConsoleEvent/statusChanged(_:)``.
    case status
    /// The apps connected to the flag server of `console --serve`: answered by ``ConsoleEvent/appsRead(_:)``.
    case connectedApps
}

/// What the header shows besides the counts: the remote sources and the store's last error.
package struct ConsoleStatus: Sendable, Equatable {
    /// One attached remote source.
    package struct Remote: Sendable, Equatable {
        /// Its name.
        package var name: String
        /// Its last fetch.
        package var status: RemoteSourceStatus
        /// Whether it is a flag server attached by `--serve` (its name says who is connected).
        package var isServer: Bool

        /// Creates a remote's status.
        package init(name: String, status: RemoteSourceStatus, isServer: Bool = false) {
            self.name = name
            self.status = status
            self.isServer = isServer
        }
    }

    /// The attached remote sources, in order (`Ctrl-R` refreshes them).
    package var remotes: [Remote] = []
    /// The override store's last error, as a message, or `nil`.
    package var storeProblem: String?

    /// Creates a status.
    package init(remotes: [Remote] = [], storeProblem: String? = nil) {
        self.remotes = remotes
        self.storeProblem = storeProblem
    }
}

/// What changed about the flags, read once by the shell after the registry reported a change: the header counts,
/// the changed flags as the list and the detail pane show them, the tree when flags were registered since the last
/// one, and what else the store's change may have changed (the status, the bisect banner).
package struct FlagsUpdate: Sendable {
    /// The header counts now.
    package var counts: ConsoleState.Counts
    /// The changed flags, read after the change, or `nil` when too many changed to list (every flag counts as
    /// changed).
    package var changed: [ConsoleFlag]?
    /// The new tree, when flags were registered at runtime (every flag counts as changed).
    package var outline: ConsoleOutline?
    /// The remote sources' and the store's status.
    package var status: ConsoleStatus
    /// The bisect session on the store, or `nil` when none is active (a bisect step writes the store).
    package var bisect: BisectBanner?

    /// Creates an update.
    package init(
        counts: ConsoleState.Counts, changed: [ConsoleFlag]?, outline: ConsoleOutline? = nil,
        status: ConsoleStatus = ConsoleStatus(), bisect: BisectBanner? = nil
    ) {
        self.counts = counts
        self.changed = changed
        self.outline = outline
        self.status = status
        self.bisect = bisect
    }
}

/// What the state starts from: read once, when the console opens.
package struct ConsoleStart: Sendable {
    /// The registry's display name.
    package var name: String
    /// The header counts.
    package var counts: ConsoleState.Counts
    /// The tree of every flag.
    package var outline: ConsoleOutline
    /// The overrides when the console opened (only overridden flags and settings, as JSON).
    package var openingOverrides: [String: OverrideValue]
    /// The remote sources' and the store's status.
    package var status: ConsoleStatus
    /// The registry's date and time.
    package var now: Date
    /// The bisect session on the store, or `nil` when none is active.
    package var bisect: BisectBanner?

    /// Creates a start.
    package init(
        name: String, counts: ConsoleState.Counts, outline: ConsoleOutline, openingOverrides: [String: OverrideValue],
        status: ConsoleStatus = ConsoleStatus(), now: Date, bisect: BisectBanner? = nil
    ) {
        self.name = name
        self.counts = counts
        self.outline = outline
        self.openingOverrides = openingOverrides
        self.status = status
        self.now = now
        self.bisect = bisect
    }
}

/// A search's answer: the query and scope it was asked for, and the results.
package struct SearchAnswer: Sendable, Equatable {
    /// The query searched for.
    package var query: String
    /// The scope searched in.
    package var scope: SearchScope
    /// The results, best first, copied out of the registry.
    package var hits: ConsoleSearchHits

    /// Creates an answer.
    package init(query: String, scope: SearchScope, hits: ConsoleSearchHits) {
        self.query = query
        self.scope = scope
        self.hits = hits
    }
}
