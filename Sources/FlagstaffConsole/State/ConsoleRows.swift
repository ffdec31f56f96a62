import Flagstaff

/// The list's rows, built lazily from whatever produced them.
///
/// A search over 100,000 flags can return 100,000 results; turning each into a ``ConsoleRow`` on every
/// keystroke would cost more than the layout. This collection keeps the results (or the built tree) and makes
/// a row only when one is read — the layout reads only the visible ones.
package struct ConsoleRows: RandomAccessCollection, Sendable {
    enum Storage: Sendable {
        /// The tree (groups and flags), built eagerly.
        case tree([ConsoleRow])
        /// Search results (best first), or the flags of a scope without a query (declaration order).
        case results(any ConsoleSearchHits, highlighted: Bool)
    }

    let storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    /// An empty list.
    package static let empty = ConsoleRows(.tree([]))

    /// The first index (0).
    package var startIndex: Int { 0 }

    /// One past the last index.
    package var endIndex: Int {
        switch storage {
        case let .tree(rows): rows.count
        case let .results(results, _): results.count
        }
    }

    /// The row at a position (made on demand for search results).
    package subscript(position: Int) -> ConsoleRow {
        switch storage {
        case let .tree(rows):
            return rows[position]
        case let .results(results, highlighted):
            return .flag(.init(
                key: results.key(at: position), depth: 0, showsGroupPath: true,
                matchedRanges: highlighted ? results.matchedRanges(at: position) : nil
            ))
        }
    }

    /// The position of the row with a given ``ConsoleRow/id``, without building rows for flags.
    func firstIndex(ofID id: String) -> Int? {
        switch storage {
        case let .tree(rows):
            return rows.firstIndex { $0.id == id }
        case let .results(results, _):
            guard id.hasPrefix("flag:") else { return nil }
            return results.position(ofKey: String(id.dropFirst(5)))
        }
    }
}
