import Flagstaff

/// The list's rows, built lazily from whatever produced them.
///
/// A search over 100,000 flags can return 100,000 results; turning each into a ``ConsoleRow`` on every
/// keystroke would cost more than the layout. This collection keeps the results (or the tree's shape) and makes
/// a row only when one is read — the layout reads only the visible ones.
package struct ConsoleRows: RandomAccessCollection, Sendable, Equatable {
    enum Storage: Sendable, Equatable {
        /// The tree: its shape built eagerly, flag keys read when a row is.
        case tree(Tree)
        /// Search results (best first), or the flags of a scope without a query (declaration order).
        case results(ConsoleSearchHits, highlighted: Bool)
    }

    /// The tree's rows: group headers, and flags as positions in the outline's key lists.
    struct Tree: Sendable, Equatable {
        enum Item: Sendable, Equatable {
            case group(ConsoleRow.GroupRow)
            case flag(list: Int32, index: Int32, depth: Int32)
        }

        var items: [Item] = []
        var lists: [ConsoleKeyList] = []

        /// The position of the row with ``ConsoleRow/id`` `id` (flag keys are read one by one).
        func firstIndex(ofID id: String) -> Int? {
            if id.hasPrefix("group:") {
                let groupID = id.dropFirst(6)
                return items.firstIndex { item in
                    if case .group(let group) = item { return group.id == groupID }
                    return false
                }
            }
            guard id.hasPrefix("flag:") else { return nil }
            let key = id.dropFirst(5)
            return items.firstIndex { item in
                if case .flag(let list, let index, _) = item { return lists[Int(list)].key(at: Int(index)) == key }
                return false
            }
        }

        func row(at position: Int) -> ConsoleRow {
            switch items[position] {
            case .group(let group):
                return .group(group)
            case .flag(let list, let index, let depth):
                let key = lists[Int(list)].key(at: Int(index))
                return .flag(.init(key: key, depth: Int(depth), showsGroupPath: false, matchedRanges: nil))
            }
        }
    }

    private(set) var storage: Storage

    init(_ storage: Storage) {
        self.storage = storage
    }

    /// An empty list.
    package static let empty = ConsoleRows(.tree(Tree()))

    /// The first index (0).
    package var startIndex: Int { 0 }

    /// One past the last index.
    package var endIndex: Int {
        switch storage {
        case .tree(let tree): tree.items.count
        case .results(let results, _): results.count
        }
    }

    /// The row at a position (made on demand for search results).
    package subscript(position: Int) -> ConsoleRow {
        switch storage {
        case .tree(let tree):
            return tree.row(at: position)
        case .results(let results, let highlighted):
            return .flag(
                .init(
                    key: results.key(at: position), depth: 0, showsGroupPath: true,
                    matchedRanges: highlighted ? results.matchedRanges[position] ?? [:] : nil
                ))
        }
    }

    /// The search results these rows show, with whether they are highlighted (`nil` for the tree).
    var searchHits: ConsoleSearchHits? {
        if case .results(let hits, true) = storage { return hits }
        return nil
    }

    /// Takes the matched characters read for some positions of highlighted search results in.
    mutating func take(matchedRanges read: [Int: [SearchField: [Range<Int>]]]) {
        guard case .results(var hits, true) = storage else { return }
        hits.take(matchedRanges: read)
        storage = .results(hits, highlighted: true)
    }

    /// The position of the row with a given ``ConsoleRow/id``, without building rows for flags.
    func firstIndex(ofID id: String) -> Int? {
        switch storage {
        case .tree(let tree):
            return tree.firstIndex(ofID: id)
        case .results(let results, _):
            guard id.hasPrefix("flag:") else { return nil }
            return results.position(ofKey: String(id.dropFirst(5)))
        }
    }
}
