/// The flags found by `AnyFeatureRegistry.search(_:scope:)`, best first.
///
/// A collection over the search's ranked entries: a ``SearchResult`` is made only when one is read, so a
/// query that matches 100,000 flags costs no more to return than one that matches ten, and a screen that
/// shows forty rows reads forty results.
public struct SearchResults: RandomAccessCollection, Sendable {
    private let index: SearchIndex
    private let query: FoldedQuery
    /// Index entries, best first.
    private let entries: [Int32]
    /// Per entry, its sort bucket (kind × field × position), or empty for an unfiltered listing.
    private let buckets: [UInt16]

    init(index: SearchIndex, query: FoldedQuery, entries: [Int32], buckets: [UInt16]) {
        self.index = index
        self.query = query
        self.entries = entries
        self.buckets = buckets
    }

    /// The first position (0).
    public var startIndex: Int { 0 }
    /// One past the last position.
    public var endIndex: Int { entries.count }

    /// The result at a position.
    public subscript(position: Int) -> SearchResult {
        let entry = Int(entries[position])
        guard !buckets.isEmpty else {
            return SearchResult(
                feature: index.features[entry], kind: .unfiltered, field: .label,
                index: index, entry: entry, query: query)
        }
        let (kind, field) = SearchBucket.kindAndField(buckets[position])
        return SearchResult(
            feature: index.features[entry], kind: kind, field: field,
            index: index, entry: entry, query: query)
    }

    /// The members of `features` that are not among these results, in their order: one pass over the ranked
    /// entries comparing registry positions (no result made, no key read).
    package func notIncluded(_ features: [AnyFeature]) -> [AnyFeature] {
        guard !features.isEmpty else { return [] }
        // An entry is a member's position in the registry (the index lists `allFeatures` in order).
        func entry(of feature: AnyFeature) -> Int? {
            guard let entry = feature.registryOrdinal, entry < index.features.count, index.features[entry] === feature
            else { return nil }
            return entry
        }
        let known = features.compactMap(entry)
        guard !known.isEmpty else { return features }
        var listed = [Bool](repeating: false, count: index.features.count)
        entries.withUnsafeBufferPointer { entries in
            for entry in entries { listed[Int(entry)] = true }
        }
        return features.filter { feature in entry(of: feature).map { !listed[$0] } ?? true }
    }

    /// The results' registry positions, best first, read without making a result (the index lists `allFeatures`
    /// in order, so an entry is its member's ordinal).
    package var ordinals: [Int32] { entries }

    /// The position of the flag with a given key, or `nil`.
    package func firstIndex(ofKey key: String) -> Int? {
        entries.firstIndex { index.features[Int($0)].key == key }
    }
}

/// A search's sort bucket: match kind, then field, then the match's byte position (clamped to 63). Sorting
/// by bucket (stable, so declaration order breaks ties) gives the documented ranking.
enum SearchBucket {
    static let positions = 64
    static let count = SearchMatchKind.allCases.count * SearchField.allCases.count * positions

    static func make(kind: SearchMatchKind, field: SearchField, position: Int) -> UInt16 {
        UInt16((kind.rawValue * SearchField.allCases.count + field.rawValue) * positions + min(position, positions - 1))
    }

    /// Kind, field and (clamped) position of a bucket.
    static func decode(_ bucket: UInt16) -> (SearchMatchKind, SearchField, Int) {
        let (kind, field) = kindAndField(bucket)
        return (kind, field, Int(bucket) % positions)
    }

    static func kindAndField(_ bucket: UInt16) -> (SearchMatchKind, SearchField) {
        let kindAndField = Int(bucket) / positions
        let fieldCount = SearchField.allCases.count
        return (
            SearchMatchKind(rawValue: kindAndField / fieldCount) ?? .subsequence,
            SearchField(rawValue: kindAndField % fieldCount) ?? .label
        )
    }
}
