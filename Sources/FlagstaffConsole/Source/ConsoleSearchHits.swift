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
    /// The ordinal (``ConsoleFlagSource/ordinal(forKey:)``) of the result at `position`, known without a look-up
    /// (`nil`: not a flag of the registry, as an orphan override).
    func ordinal(at position: Int) -> Int?
}
