import Flagstaff

/// A search's results as the source finds them, best first (the registry's lazy `SearchResults`): read by the
/// feed, which copies them into a ``ConsoleSearchHits`` value for the state and keeps them to answer the matched
/// characters of the rows on screen (``ConsoleRead/matches(query:scope:positions:)``).
package protocol LiveSearchHits: Sendable {
    /// The number of results.
    var count: Int { get }
    /// The key of the result at `position`.
    func key(at position: Int) -> String
    /// The matched characters of the result at `position`, per field, as `Character` offsets (empty
    /// without a query).
    func matchedRanges(at position: Int) -> [SearchField: [Range<Int>]]
    /// The ordinal (``ConsoleFlagSource/ordinal(forKey:)``) of the result at `position`, known without a look-up
    /// (`nil`: not a flag of the registry, as an orphan override).
    func ordinal(at position: Int) -> Int?
    /// Every result's ordinal, best first (-1: not a flag of the registry), read in one go: what the feed copies.
    var ordinals: [Int32] { get }
}

/// A search's results, best first, as plain values copied out of the registry when read: each result's ordinal,
/// with the keys of every flag by ordinal (the feed's table, shared, not copied), and the matched characters of
/// the results read so far (those on screen, asked for with ``ConsoleRead/matches(query:scope:positions:)``:
/// making them for 100,000 results on each keystroke would cost more than the frame).
package struct ConsoleSearchHits: Sendable, Equatable {
    /// Per result, its ordinal, or -1 for a key the registry does not declare.
    private var ordinals: [Int32] = []
    /// The keys of every flag, by ordinal.
    private var keyTable: [String] = []
    /// The keys of the results whose ordinal is not in ``keyTable`` (orphans, flags registered since), by position.
    private var otherKeys: [Int: String] = [:]
    /// The matched characters of the results read so far, by position.
    package private(set) var matchedRanges: [Int: [SearchField: [Range<Int>]]] = [:]

    /// No results.
    package init() {}

    /// Results listed by key with their ordinals (`nil`: not a flag of the registry), as the stale overrides are.
    package init(keys: [String], ordinals: [Int?]) {
        self.ordinals = ordinals.map { $0.map(Int32.init) ?? -1 }
        otherKeys = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($0.offset, $0.element) })
    }

    /// A copy of a source's results: their ordinals in one go, the keys taken from `keyTable` (a result outside it
    /// is read from the source), no matched characters yet.
    package init(copying live: any LiveSearchHits, keyTable: [String]) {
        ordinals = live.ordinals
        self.keyTable = keyTable
        let count = keyTable.count
        for (position, ordinal) in ordinals.enumerated() where ordinal < 0 || Int(ordinal) >= count {
            otherKeys[position] = live.key(at: position)
        }
    }

    /// The number of results.
    package var count: Int { ordinals.count }

    /// The key of the result at `position`.
    package func key(at position: Int) -> String {
        if !otherKeys.isEmpty, let key = otherKeys[position] { return key }
        return keyTable[Int(ordinals[position])]
    }

    /// The ordinal of the result at `position` (`nil`: not a flag of the registry).
    package func ordinal(at position: Int) -> Int? { ordinals[position] < 0 ? nil : Int(ordinals[position]) }

    /// The position of the result with `key`, or `nil`.
    package func position(ofKey key: String) -> Int? {
        (0..<count).first { self.key(at: $0) == key }
    }

    /// Whether the matched characters of the result at `position` were read.
    package func hasMatchedRanges(at position: Int) -> Bool { matchedRanges[position] != nil }

    /// Takes matched characters read for some positions in.
    package mutating func take(matchedRanges read: [Int: [SearchField: [Range<Int>]]]) {
        matchedRanges.merge(read) { _, new in new }
    }
}
