import Foundation

/// A change to a store's overrides, written in one read-modify-write (``OverrideStore/write(_:)``): a new value
/// or a removal for each of its keys, and the expiry of the keys set that have one (a key set without one becomes
/// permanent). A dictionary literal is a change: `["blueText": .on, "maxItems": nil]` (`nil` removes the key).
///
/// Every write takes this one shape, whether it names one key or every marked member: the keys are kept in the
/// byte order of their UTF-8, each once, so that a file store merges them into its own order in one pass and the
/// registry applies what changed in that order (docs/performance.md, "One write path").
public struct OverrideChange: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// What a change does to one key.
    public enum Edit: Sendable, Hashable {
        /// Stores this value.
        case set(OverrideValue)
        /// Removes the override.
        case remove

        /// The edit that stores `value`, or removes the override for `nil`.
        public init(_ value: OverrideValue?) {
            self = value.map(Edit.set) ?? .remove
        }

        /// The value stored, or `nil` for a removal.
        public var value: OverrideValue? {
            if case .set(let value) = self { return value }
            return nil
        }
    }

    /// The keys changed, in the byte order of their UTF-8, each once.
    public private(set) var keys: [String]
    /// The edit of each key, in the order of ``keys``.
    public private(set) var edits: [Edit]
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
        /// The value set, `nil` for a removal.
        package var value: OverrideValue?
        /// When the setter was called.
        package var time: Date
    }

    /// A change by key: `nil` removes a key's override. The keys are sorted once here.
    /// - Parameters:
    ///   - values: keys and their new values.
    ///   - expiries: the expiry of keys set that have one.
    public init(_ values: [String: OverrideValue?], expiries: [String: OverrideExpiry] = [:]) {
        let unsorted = Array(values.keys)
        keys = ByteOrderSort.sortedIndices(unsorted).map { unsorted[$0] }
        edits = keys.map { key in values[key].map(Edit.init) ?? .remove }
        self.expiries = expiries
        journalSteps = nil
    }

    /// A change written as a dictionary literal: `["blueText": .on, "maxItems": nil]`; a key given twice takes its
    /// last value.
    public init(dictionaryLiteral elements: (String, OverrideValue?)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { $1 }))
    }

    /// A change of keys already in byte order, each once, with the edit of each.
    package init(sortedKeys: [String], edits: [Edit]) {
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
    package init(sortedKeys: [String], edit: Edit) {
        self.init(sortedKeys: sortedKeys, edits: Array(repeating: edit, count: sortedKeys.count))
    }

    /// Whether the change has no key.
    public var isEmpty: Bool { keys.isEmpty }

    /// The number of keys changed.
    public var count: Int { keys.count }

    /// The edit of `key`, or `nil` when the change leaves it alone (a binary search).
    public func edit(forKey key: String) -> Edit? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if ByteOrderSort.compare(keys[middle], key) < 0 { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? edits[low] : nil
    }

    /// The change by key, `nil` for a removal.
    public var valuesByKey: [String: OverrideValue?] {
        Dictionary(uniqueKeysWithValues: zip(keys, edits.map(\.value)))
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
