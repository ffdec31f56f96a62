import Flagstaff
import Foundation

/// The console's one reader of the flags: answers the state's ``ConsoleRead``s and turns the registry's changes
/// into ``FlagsUpdate``s, from a ``ConsoleFlagSource`` (the registry, or a fake in tests).
///
/// It keeps the overridden and pending-restart flags by ordinal, so a change of a few flags is counted by reading
/// those flags only, and a change of many by one lean pass over every flag.
///
/// Not thread-safe: use it from the console's loop.
package final class ConsoleFeed {
    /// Above this many changed keys, a change is counted by one pass over every flag and its flags are not listed.
    package static let listedChangeLimit = 256

    /// This feed's limit (``listedChangeLimit`` unless a test lowers it).
    package var recountAbove = ConsoleFeed.listedChangeLimit

    /// The flags read.
    package let source: any ConsoleFlagSource
    private var notable = NotableMembers()
    /// The number of flags the last outline was read with (a change means flags were registered at runtime).
    private var flagCount = 0
    /// The overrides when the console opened (``start()``): what the outcome's changed keys are measured against.
    private var openingOverrides: [String: OverrideValue] = [:]
    /// The keys of every flag by ordinal (from the last outline read): a search's answer takes its keys from it.
    private var keyTable: [String] = []
    /// The last search as the source answered it: the matched characters of the rows on screen are read from it.
    private var lastSearch: (query: String, scope: SearchScope, hits: any LiveSearchHits)?

    /// Creates a feed.
    package init(source: any ConsoleFlagSource) {
        self.source = source
    }

    /// What the state starts from.
    package func start() -> ConsoleStart {
        let statuses = source.notableStatuses()
        let openingOverrides = Dictionary(
            statuses.lazy.compactMap { status in status.overrideValue.map { (status.key, $0) } },
            uniquingKeysWith: { first, _ in first })
        self.openingOverrides = openingOverrides
        notable = NotableMembers()
        for status in statuses {
            guard let ordinal = source.ordinal(forKey: status.key) else { continue }
            if status.isOverridden { notable.overridden.insert(ordinal) }
            if status.isPendingRestart { notable.pendingRestart.insert(ordinal) }
        }
        flagCount = source.flagCount
        let outline = source.outline()
        keyTable = Self.keyTable(of: outline, count: flagCount)
        return ConsoleStart(
            name: source.name, counts: counts, outline: outline, openingOverrides: openingOverrides,
            status: Self.status(of: source), now: source.now, bisect: source.bisectBanner)
    }

    /// The session's result, from the flags as they are now and the overrides when the console opened.
    /// - Parameters:
    ///   - choice: the restart choice.
    ///   - signal: the signal that ended the session, if any.
    package func outcome(choice: RestartChoice, signal: ConsoleSignal?) -> ConsoleOutcome {
        ConsoleOutcome(
            choice: choice, signal: signal, statuses: source.notableStatuses(), openingOverrides: openingOverrides)
    }

    /// The update after the registry reported a change: each changed flag read once, as the list and the detail
    /// pane show it, and counted from that read.
    package func update(_ changes: ChangedFlags) -> FlagsUpdate {
        guard source.flagCount == flagCount, case .keys(let keys) = changes, keys.count <= recountAbove
        else { return updateEveryFlag() }
        let changed = flags(Array(keys))
        for flag in changed {
            guard let ordinal = flag.ordinal else { continue }
            let status = flag.status
            if status.isOverridden { notable.overridden.insert(ordinal) } else { notable.overridden.remove(ordinal) }
            if status.isPendingRestart {
                notable.pendingRestart.insert(ordinal)
            } else {
                notable.pendingRestart.remove(ordinal)
            }
        }
        return FlagsUpdate(
            counts: counts, changed: changed, status: Self.status(of: source), bisect: source.bisectBanner)
    }

    /// An update with the new tree when flags were registered since the last one, else `nil`.
    package func registrations() -> FlagsUpdate? {
        source.flagCount == flagCount ? nil : updateEveryFlag()
    }

    /// Every flag counted again (the tree read again when flags were registered).
    private func updateEveryFlag() -> FlagsUpdate {
        notable = source.notableMembers()
        let count = source.flagCount
        let outline = count == flagCount ? nil : source.outline()
        flagCount = count
        if let outline { keyTable = Self.keyTable(of: outline, count: count) }
        return FlagsUpdate(
            counts: counts, changed: nil, outline: outline, status: Self.status(of: source),
            bisect: source.bisectBanner)
    }

    private var counts: ConsoleState.Counts {
        ConsoleState.Counts(
            flags: flagCount, overridden: notable.overridden.count, pendingRestart: notable.pendingRestart.count)
    }

    /// The answer to a read.
    package func answer(_ read: ConsoleRead) -> ConsoleEvent {
        switch read {
        case .search(let query, let scope):
            let hits = source.search(query, scope: scope)
            lastSearch = (query, scope, hits)
            return .searched(
                SearchAnswer(query: query, scope: scope, hits: ConsoleSearchHits(copying: hits, keyTable: keyTable)))
        case .matches(let query, let scope, let positions):
            return .matchesRead(matches(query: query, scope: scope, positions: positions), query: query, scope: scope)
        case .staleOverrides:
            return .staleOverridesRead(source.staleOverrides())
        case .flags(let keys):
            return .flagsRead(keys: keys, flags: flags(keys))
        case .pendingRestarts:
            return .pendingRestartsRead(flags(source.notableStatuses().filter(\.isPendingRestart).map(\.key)))
        case .bulkTargets(let kind, let marks):
            return .bulkTargetsRead(
                BulkChange(kind: kind, targets: source.bulkTargets(of: marks, onOffOnly: kind != .reset)))
        case .status:
            return .statusChanged(Self.status(of: source))
        case .connectedApps:
            let servers = source.remoteSources.compactMap { $0 as? any ServedEvaluationReport }
            return .appsRead(servers.flatMap { server -> [ConnectedApp] in server.connectedApps })
        }
    }

    /// The keys of every flag in `outline`, by ordinal (a key without an ordinal is left out).
    private static func keyTable(of outline: ConsoleOutline, count: Int) -> [String] {
        var table = [String](repeating: "", count: count)
        func place(_ keys: ConsoleKeyList) {
            for index in 0..<keys.count {
                guard let ordinal = keys.ordinal(at: index) else { continue }
                if ordinal >= table.count {
                    table.append(contentsOf: repeatElement("", count: ordinal + 1 - table.count))
                }
                table[ordinal] = keys.key(at: index)
            }
        }
        func placeGroup(_ group: ConsoleOutline.Group) {
            place(group.keys)
            group.subgroups.forEach(placeGroup)
        }
        place(outline.rootKeys)
        outline.groups.forEach(placeGroup)
        return table
    }

    /// The matched characters of the results at `positions` of a search (the last one, when it is for this query
    /// and scope): every position asked answered (empty ranges past the end), so the state never asks again.
    private func matches(query: String, scope: SearchScope, positions: [Int]) -> [Int: [SearchField: [Range<Int>]]] {
        let hits: any LiveSearchHits
        if let last = lastSearch, last.query == query, last.scope == scope {
            hits = last.hits
        } else {
            hits = source.search(query, scope: scope)
            lastSearch = (query, scope, hits)
        }
        var ranges: [Int: [SearchField: [Range<Int>]]] = [:]
        for position in positions { ranges[position] = position < hits.count ? hits.matchedRanges(at: position) : [:] }
        return ranges
    }

    /// The flags with these keys, in order, with what the list and the detail pane show beside their values.
    private func flags(_ keys: [String]) -> [ConsoleFlag] {
        let expired = source.expiredOverrides()
        let servers = source.remoteSources.compactMap { $0 as? any ServedEvaluationReport }
        return keys.compactMap { key in
            guard var flag = source.flag(forKey: key) else { return nil }
            flag.ordinal = source.ordinal(forKey: key)
            flag.expiredOverride = flag.isOverridden ? nil : expired[key]
            flag.servedSummary = servers.lazy.compactMap { $0.evaluationSummary(forKey: key) }.first
            return flag
        }
    }

    /// The remote sources' and the store's status.
    package static func status(of source: any ConsoleFlagSource) -> ConsoleStatus {
        ConsoleStatus(
            remotes: source.remoteSources.map {
                ConsoleStatus.Remote(name: $0.name, status: $0.status, isServer: $0 is any ServedEvaluationReport)
            },
            storeProblem: source.storeErrorMessage)
    }
}
