import Flagstaff

/// The list's rows, built lazily from whatever produced them.
///
/// A search over 100,000 flags can return 100,000 results; turning each into a ``ConsoleRow`` on every
/// keystroke would cost more than the layout. This collection keeps the results (or the scoped flags, or the
/// built tree) and makes a row only when one is read — the layout reads only the visible ones.
public struct ConsoleRows: RandomAccessCollection, Sendable {
    enum Storage: Sendable {
        /// The tree (groups and flags), built eagerly.
        case tree([ConsoleRow])
        /// Search results, best first.
        case results(SearchResults)
        /// Flags of a scope, without a query, in declaration order.
        case features([AnyFeature])
    }

    let storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    /// An empty list.
    public static let empty = ConsoleRows(.tree([]))

    /// The first index (0).
    public var startIndex: Int { 0 }

    /// One past the last index.
    public var endIndex: Int {
        switch storage {
        case let .tree(rows): rows.count
        case let .results(results): results.count
        case let .features(features): features.count
        }
    }

    /// The row at a position (made on demand for search results and scoped flags).
    public subscript(position: Int) -> ConsoleRow {
        switch storage {
        case let .tree(rows):
            return rows[position]
        case let .results(results):
            let match = results[position]
            return .flag(.init(feature: match.feature, depth: 0, showsGroupPath: true, match: match))
        case let .features(features):
            return .flag(.init(feature: features[position], depth: 0, showsGroupPath: true, match: nil))
        }
    }

    /// The position of the row with a given ``ConsoleRow/id``, without building rows for flags.
    func firstIndex(ofID id: String) -> Int? {
        switch storage {
        case let .tree(rows):
            return rows.firstIndex { $0.id == id }
        case let .results(results):
            guard id.hasPrefix("flag:") else { return nil }
            let key = id.dropFirst(5)
            return results.firstIndex(ofKey: String(key))
        case let .features(features):
            guard id.hasPrefix("flag:") else { return nil }
            let key = id.dropFirst(5)
            return features.firstIndex { $0.key == key }
        }
    }
}
