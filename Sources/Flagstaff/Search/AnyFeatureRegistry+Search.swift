/// Search over a registry's flags.
extension AnyFeatureRegistry {
    /// Finds flags by key, label, group path and description, case- and diacritic-insensitively, best match
    /// first (exact > prefix > word start > substring > subsequence; then label > key > group > description;
    /// then earlier position; then declaration order).
    ///
    /// The first search builds an index of the flags' folded texts (rebuilt after runtime registrations).
    /// Searches scan it with a per-field byte-set filter; a query that extends a recent one (typing) only
    /// rescans that one's matches, and a recent query asked again (erasing) is answered from memory. An empty query returns every flag in scope in declaration order.
    /// - Parameters:
    ///   - query: the text typed by the user.
    ///   - scope: which flags to consider (by current value or override).
    /// - Returns: the matching flags, best first, with the matched ranges for highlighting; a lazy collection,
    ///   so a query matching every flag costs no more to return than a selective one.
    public func search(_ query: String, scope: SearchScope = .all) -> SearchResults {
        let index = searchIndex()
        let folded = FoldedQuery(query)
        let features = index.features
        if folded.bytes.isEmpty {
            var entries: [Int32] = []
            entries.reserveCapacity(features.count)
            for (entry, feature) in features.enumerated() where scope.includes(feature) {
                entries.append(Int32(entry))
            }
            return SearchResults(index: index, query: folded, entries: entries, buckets: [])
        }

        let generation = core.generation.load(ordering: .relaxed)
        func reusable(_ memo: SearchMemo) -> Bool {
            memo.index === index && memo.scope == scope
                && (scope == .all || (scope == .overridden && memo.generation == generation))
        }
        let (exact, narrowing): (SearchMemo?, SearchMemo?) = core.state.withLock { state in
            let usable = state.searchMemos.filter(reusable)
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
        core.state.withLock { state in
            state.searchMemos.removeAll { $0.query == memo.query && $0.scope == memo.scope }
            state.searchMemos.append(memo)
            if state.searchMemos.count > SearchMemo.limit { state.searchMemos.removeFirst() }
        }
        return SearchResults(index: index, query: folded, entries: order, buckets: sortedBuckets)
    }

    /// Drops the remembered recent searches, so the next search scans from scratch (for benchmarks).
    package func forgetRecentSearches() {
        core.state.withLock { $0.searchMemos = [] }
    }

    func searchIndex() -> SearchIndex {
        if let index = core.state.withLock({ $0.searchIndex }) { return index }
        // One build at a time: a search arriving while another thread builds (the console builds in the
        // background as it opens) waits for that index instead of building a second one beside it.
        return core.indexBuilds.withLock { builds in
            if let index = core.state.withLock({ $0.searchIndex }) { return index }
            let features = core.state.withLock { $0.features }
            let index = SearchIndex(features: features)
            builds += 1
            core.state.withLock { state in
                if state.features.count == features.count { state.searchIndex = index }
            }
            releaseFreedMemory()
            return index
        }
    }
}

/// The matches of a recent search: returned again when the query repeats (erasing back), and used as the
/// candidates when a query extends it (typing: every match of a longer query is a match of its prefix).
struct SearchMemo: @unchecked Sendable {
    // @unchecked: lives only inside RegistryCore's lock; SearchIndex is immutable.
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
