/// A registry's search: the index of its members' folded texts (built at the first search, dropped when members are
/// registered) and its recent searches, behind locks of their own (no registry state is locked here).
///
/// Searches scan the index with a per-field byte-set filter; a query that extends a recent one (typing) only
/// rescans that one's matches, and a recent query asked again (erasing) is answered from memory.
final class SearchCache: Sendable {
    private struct State {
        var index: SearchIndex?
        /// Moves whenever the index is dropped: an index built from the members read before it moved is not kept.
        var epoch: UInt64 = 0
        /// Recent searches (newest last), reused when a query repeats (erasing) or extends one (typing).
        var memos: [SearchMemo] = []
    }

    private let state = AnnotatedMutex(State())
    /// Held while the index is built, so concurrent first searches build it once; counts the builds.
    let builds = AnnotatedMutex(0)

    /// The matching members, best first (see ``AnyFeatureRegistry/search(_:scope:)``).
    /// - Parameters:
    ///   - query: the text typed.
    ///   - scope: which members to consider.
    ///   - generation: the registry's change generation now (memos of `.overridden` searches hold while it does).
    ///   - features: the registry's members, read when the index is built.
    func search(
        _ query: String, scope: SearchScope, generation: UInt64, features: () -> [AnyFeature]
    ) -> SearchResults {
        let index = self.index(features: features)
        let folded = FoldedQuery(query)
        let members = index.features
        if folded.bytes.isEmpty {
            var entries: [Int32] = []
            entries.reserveCapacity(members.count)
            for (entry, feature) in members.enumerated() where scope.includes(feature) {
                entries.append(Int32(entry))
            }
            return SearchResults(index: index, query: folded, entries: entries, buckets: [])
        }

        func reusable(_ memo: SearchMemo) -> Bool {
            memo.index === index && memo.scope == scope
                && (scope == .all || (scope == .overridden && memo.generation == generation))
        }
        let (exact, narrowing): (SearchMemo?, SearchMemo?) = state.withLock { state in
            let usable = state.memos.filter(reusable)
            let exact = usable.last { $0.query == folded.bytes }
            let narrowing = usable.filter { folded.bytes.starts(with: $0.query) }.max {
                $0.query.count < $1.query.count
            }
            return (exact, narrowing)
        }
        if let exact { return SearchResults(index: index, query: folded, entries: exact.order, buckets: exact.buckets) }

        // Match, remembering each match's sort bucket (kind, field, clamped position); entries stay in
        // declaration order within a bucket. A query that extends a recent one only rescans its matches.
        let candidates = narrowing.map { SearchCandidates(entries: $0.matched, hints: $0.matchedBuckets) }
        let (matched, buckets) = index.scan(folded, candidates: candidates, scope: scope)

        // Counting sort by bucket: linear, stable.
        let bucketCount = SearchBucket.count
        var starts = [Int](repeating: 0, count: bucketCount + 1)
        for bucket in buckets { starts[Int(bucket) + 1] += 1 }
        for bucket in 0..<bucketCount { starts[bucket + 1] += starts[bucket] }
        var order = [Int32](repeating: 0, count: matched.count)
        var sortedBuckets = [UInt16](repeating: 0, count: matched.count)
        for (position, entry) in matched.enumerated() {
            let bucket = Int(buckets[position])
            order[starts[bucket]] = entry
            sortedBuckets[starts[bucket]] = buckets[position]
            starts[bucket] += 1
        }
        let memo = SearchMemo(
            index: index, scope: scope, generation: generation, query: folded.bytes,
            matched: matched, matchedBuckets: buckets, order: order, buckets: sortedBuckets)
        state.withLock { state in
            state.memos.removeAll { $0.query == memo.query && $0.scope == memo.scope }
            state.memos.append(memo)
            if state.memos.count > SearchMemo.limit { state.memos.removeFirst() }
        }
        return SearchResults(index: index, query: folded, entries: order, buckets: sortedBuckets)
    }

    /// Drops the remembered recent searches, so the next search scans from scratch (for benchmarks).
    func forgetRecentSearches() {
        state.withLock { $0.memos = [] }
    }

    /// Drops the index and the recent searches (members were registered). Called with the registry's state locked:
    /// nothing here takes that lock while holding this one.
    func invalidate() {
        state.withLock { state in
            state.index = nil
            state.epoch += 1
            state.memos = []
        }
    }

    /// The index, built from `features` if there is none.
    func index(features: () -> [AnyFeature]) -> SearchIndex {
        if let index = state.withLock({ $0.index }) { return index }
        // One build at a time: a search arriving while another thread builds (the console builds in the
        // background as it opens) waits for that index instead of building a second one beside it.
        return builds.withLock { builds in
            let (existing, epoch) = state.withLock { ($0.index, $0.epoch) }
            if let existing { return existing }
            let index = SearchIndex(features: features())
            builds += 1
            state.withLock { state in
                if state.epoch == epoch { state.index = index }
            }
            releaseFreedMemory()
            return index
        }
    }
}

/// The matches of a recent search: returned again when the query repeats (erasing back), and used as the
/// candidates when a query extends it (typing: every match of a longer query is a match of its prefix).
struct SearchMemo: @unchecked Sendable {
    // @unchecked: lives only inside SearchCache's lock; SearchIndex is immutable.
    /// How many recent searches are kept (about 8 bytes per match each).
    static let limit = 8
    let index: SearchIndex
    let scope: SearchScope
    let generation: UInt64
    let query: [UInt8]
    /// Matching entries, in declaration order, and their sort buckets (hints for a narrowing search).
    let matched: [Int32]
    let matchedBuckets: [UInt16]
    /// Matching entries, best first, and their sort buckets (kind, field, position).
    let order: [Int32]
    let buckets: [UInt16]
}
