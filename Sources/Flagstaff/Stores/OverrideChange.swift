import Foundation

/// What a write does to one key's override: the package's one word for it, from an app's
/// ``AnyFeatureRegistry/setOverrideValues(_:expiresAt:)`` to the console's pending writes and the journal's undo.
public enum OverrideEdit: Sendable, Hashable {
    /// Stores this value.
    case set(OverrideValue)
    /// Removes the override (the member falls back to its value without one).
    case remove

    /// The edit that stores `value`, or removes the override for `nil` (where a value read from a store or a
    /// snapshot, present or not, becomes an edit).
    package init(_ value: OverrideValue?) {
        self = value.map(OverrideEdit.set) ?? .remove
    }

    /// The value stored, or `nil` for a removal.
    public var value: OverrideValue? {
        if case .set(let value) = self { return value }
        return nil
    }
}

/// A change to a store's overrides, written in one read-modify-write (``OverrideStore/write(_:)``): an edit of each
/// of its keys, and the expiry of the keys set that have one (a key set without one becomes permanent). A
/// dictionary literal is a change: `["blueText": .set(.on), "maxItems": .remove]`.
///
/// Every write takes this one shape, whether it names one key or every marked member: the keys are kept in the
/// byte order of their UTF-8, each once, so that a file store merges them into its own order in one pass and the
/// registry applies what changed in that order (docs/performance.md, "One write path").
public struct OverrideChange: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The keys changed, in the byte order of their UTF-8, each once.
    public private(set) var keys: [String]
    /// The edit of each key, in the order of ``keys``.
    public private(set) var edits: [OverrideEdit]
    /// The expiry of keys set that have one.
    public var expiries: [String: OverrideExpiry]
    /// The setter calls this change gathers (``AnyFeatureRegistry`` coalescing an app's writes), in the order they
    /// were made, or `nil`. A store that keeps a journal journals each as a change of its own, at its own time (what
    /// the user did, one undo step each), instead of the change as one; the file gets the change, the last value of
    /// each key.
    package var journalSteps: [JournalStep]?

    /// One setter call gathered in a change (``journalSteps``).
    package struct JournalStep: Sendable, Equatable {
        /// The key set.
        package var key: String
        /// What the call did to the key.
        package var edit: OverrideEdit
        /// When the setter was called.
        package var time: Date
    }

    /// A change by key. The keys are sorted once here.
    /// - Parameters:
    ///   - edits: keys and what to do to each.
    ///   - expiries: the expiry of keys set that have one.
    public init(_ edits: [String: OverrideEdit], expiries: [String: OverrideExpiry] = [:]) {
        let unsorted = Array(edits.keys)
        keys = ByteOrderSort.sortedIndices(unsorted).map { unsorted[$0] }
        self.edits = keys.map { key in edits[key] ?? .remove }
        self.expiries = expiries
        journalSteps = nil
    }

    /// A change written as a dictionary literal: `["blueText": .set(.on), "maxItems": .remove]`; a key given twice
    /// takes its last edit.
    public init(dictionaryLiteral elements: (String, OverrideEdit)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    /// A change of keys already in byte order, each once, with the edit of each.
    package init(sortedKeys: [String], edits: [OverrideEdit]) {
        assert(sortedKeys.count == edits.count, "one edit per key")
        assert(
            zip(sortedKeys, sortedKeys.dropFirst()).allSatisfy { ByteOrderSort.compare($0, $1) < 0 },
            "keys not sorted, or repeated")
        keys = sortedKeys
        self.edits = edits
        expiries = [:]
        journalSteps = nil
    }

    /// The same edit for keys already in byte order, each once.
    package init(sortedKeys: [String], edit: OverrideEdit) {
        self.init(sortedKeys: sortedKeys, edits: Array(repeating: edit, count: sortedKeys.count))
    }

    /// Whether the change has no key.
    public var isEmpty: Bool { keys.isEmpty }

    /// The number of keys changed.
    public var count: Int { keys.count }

    /// The edit of `key`, or `nil` when the change leaves it alone (a binary search).
    public func edit(forKey key: String) -> OverrideEdit? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if ByteOrderSort.compare(keys[middle], key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? edits[low] : nil
    }

    /// The change by key.
    public var editsByKey: [String: OverrideEdit] {
        Dictionary(uniqueKeysWithValues: zip(keys, edits))
    }

    /// The expiry a key set by this change gets: the one listed for it, or none.
    package func expiresAt(forKey key: String) -> Date? {
        expiries.isEmpty ? nil : expiries[key]?.expiresAt
    }

    /// `overrides` after this change, for a store that keeps no expiry times (its ``OverrideStore/write(_:)``
    /// then saves the result).
    /// - Parameters:
    ///   - overrides: the store's overrides before the change.
    ///   - store: the store, named in the error.
    /// - Returns: the overrides after it.
    /// - Throws: ``OverrideStoreError/unwritable(path:reason:)`` naming the store's type when the change gives a
    ///   key an expiry; the store must then write nothing.
    public func applied(to overrides: [String: OverrideValue], in store: some OverrideStore) throws
        -> [String: OverrideValue]
    {
        guard expiries.isEmpty else {
            throw OverrideStoreError.unwritable(
                path: String(describing: type(of: store)),
                reason: "this store does not keep expiry times; nothing was written")
        }
        var result = overrides
        for (key, edit) in zip(keys, edits) { result[key] = edit.value }
        return result
    }
}
