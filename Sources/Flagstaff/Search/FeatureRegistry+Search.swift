/// Search over a registry's flags.
extension FeatureRegistry {
    /// Finds flags by key, label, group path and description, case- and diacritic-insensitively, best match
    /// first (exact > prefix > word start > substring > subsequence; then label > key > group > description;
    /// then earlier position; then declaration order).
    ///
    /// The first search builds an index of the flags' folded texts (rebuilt after runtime registrations); a
    /// search then scans it without allocating per flag. An empty query returns every flag in scope in
    /// declaration order.
    /// - Parameters:
    ///   - query: the text typed by the user.
    ///   - scope: which flags to consider (by current value or override).
    /// - Returns: the matching flags, best first, with the matched ranges for highlighting.
    public func search(_ query: String, scope: SearchScope = .all) -> [SearchResult] {
        let index = searchIndex()
        let folded = FoldedQuery(query)
        var found: [(sortKey: UInt64, result: SearchResult)] = []
        for (entry, feature) in index.features.enumerated() where scope.includes(feature) {
            if folded.bytes.isEmpty {
                found.append((UInt64(entry), SearchResult(feature: feature, kind: .unfiltered, field: .label, index: index, entry: entry, query: folded)))
                continue
            }
            var best: (kind: SearchMatchKind, field: SearchField, position: Int)?
            for field in SearchField.allCases {
                guard let match = index.match(folded, entry: entry, field: field) else { continue }
                let position = match.runs.first?.0 ?? 0
                if best == nil || match.kind < best!.kind {
                    best = (match.kind, field, position)
                }
                if match.kind == .exact { break }
            }
            guard let best else { continue }
            let sortKey = UInt64(best.kind.rawValue) << 60 | UInt64(best.field.rawValue) << 56
                | UInt64(min(best.position, 0xFFFFF)) << 32 | UInt64(entry)
            found.append((sortKey, SearchResult(feature: feature, kind: best.kind, field: best.field, index: index, entry: entry, query: folded)))
        }
        found.sort { $0.sortKey < $1.sortKey }
        return found.map(\.result)
    }

    func searchIndex() -> SearchIndex {
        if let index = core.state.withLock({ $0.searchIndex }) { return index }
        let features = allFeatures
        let index = SearchIndex(features: features)
        core.state.withLock { state in
            if state.features.count == features.count { state.searchIndex = index }
        }
        return index
    }
}
