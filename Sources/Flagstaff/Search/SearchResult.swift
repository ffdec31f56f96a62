/// One flag found by `AnyFeatureRegistry.search(_:scope:)`.
public struct SearchResult: Sendable {
    /// The flag.
    public let feature: AnyFeature
    /// The best kind of match over all fields.
    public let kind: SearchMatchKind
    /// The field with the best match.
    public let field: SearchField
    let index: SearchIndex
    let entry: Int
    let query: FoldedQuery

    /// For each matching field, the matched characters as `Character` offsets into ``SearchField/text(of:)``,
    /// for highlighting. Computed when read (cheap for one result; avoid reading it for results not shown).
    public var matchedRanges: [SearchField: [Range<Int>]] {
        var result: [SearchField: [Range<Int>]] = [:]
        guard kind != .unfiltered else { return result }
        for field in SearchField.allCases {
            guard let match = index.match(query, entry: entry, field: field) else { continue }
            let ranges = index.characterRanges(of: match, entry: entry, field: field, feature: feature)
            if !ranges.isEmpty { result[field] = ranges }
        }
        return result
    }
}
