import Flagstaff

/// A search's results, best first, read lazily (only the visible rows are built).
package protocol ConsoleSearchHits: Sendable {
    /// The number of results.
    var count: Int { get }
    /// The key of the result at `position`.
    func key(at position: Int) -> String
    /// The matched characters of the result at `position`, per field, as `Character` offsets (empty
    /// without a query).
    func matchedRanges(at position: Int) -> [SearchField: [Range<Int>]]
    /// The position of the flag with `key`, or `nil`.
    func position(ofKey key: String) -> Int?
    /// The ordinal (``ConsoleFlagSource/ordinal(forKey:)``) of the result at `position` when known without a
    /// look-up, else `nil` (the default).
    func ordinal(at position: Int) -> Int?
}

extension ConsoleSearchHits {
    /// Not known: the caller looks the key up.
    package func ordinal(at position: Int) -> Int? { nil }
}
