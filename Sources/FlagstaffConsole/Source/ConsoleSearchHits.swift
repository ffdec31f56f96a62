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
}

/// A search's results, best first, as plain values copied out of the registry when read: each result's key and
/// ordinal, and the matched characters of the results read so far (those on screen, asked for with
/// ``ConsoleRead/matches(query:scope:positions:)``: making them for 100,000 results on each keystroke would cost
/// more than the frame).
package struct ConsoleSearchHits: Sendable, Equatable {
    /// The results' keys, best first.
    package private(set) var keys: [String] = []
    /// Per result, its ordinal, or -1 for a key the registry does not declare.
    private var ordinals: [Int32] = []
    /// The matched characters of the results read so far, by position.
    package private(set) var matchedRanges: [Int: [SearchField: [Range<Int>]]] = [:]

    /// No results.
    package init() {}

    /// Results with their ordinals (`nil`: not a flag of the registry).
    package init(keys: [String], ordinals: [Int?]) {
        self.keys = keys
        self.ordinals = ordinals.map { $0.map(Int32.init) ?? -1 }
    }

    /// A copy of a source's results: each key and ordinal read once (no matched characters yet).
    package init(copying live: any LiveSearchHits) {
        let count = live.count
        keys.reserveCapacity(count)
        ordinals.reserveCapacity(count)
        for position in 0..<count {
            keys.append(live.key(at: position))
            ordinals.append(live.ordinal(at: position).map(Int32.init) ?? -1)
        }
    }

    /// The number of results.
    package var count: Int { keys.count }

    /// The key of the result at `position`.
    package func key(at position: Int) -> String { keys[position] }

    /// The ordinal of the result at `position` (`nil`: not a flag of the registry).
    package func ordinal(at position: Int) -> Int? { ordinals[position] < 0 ? nil : Int(ordinals[position]) }

    /// The position of the result with `key`, or `nil`.
    package func position(ofKey key: String) -> Int? { keys.firstIndex(of: key) }

    /// Whether the matched characters of the result at `position` were read.
    package func hasMatchedRanges(at position: Int) -> Bool { matchedRanges[position] != nil }

    /// Takes matched characters read for some positions in.
    package mutating func take(matchedRanges read: [Int: [SearchField: [Range<Int>]]]) {
        matchedRanges.merge(read) { _, new in new }
    }
}
