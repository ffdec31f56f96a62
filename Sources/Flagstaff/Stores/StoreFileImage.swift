import Foundation

/// A store file as a ``FileOverrideStore`` last read or wrote it, with what its bytes decode to and (after a
/// write) its overrides in file order.
///
/// A read-modify-write reads the file every time, under the lock, so another process's write is never missed;
/// when the bytes are exactly those of the image (compared in full: about a millisecond for a 3 MB file of
/// 100,000 overrides), the decoded contents are taken from the image instead of parsing the file again, and a
/// change is merged into the overrides in file order (its own keys sorted once, for the journal too) instead
/// of sorting every key and looking every value up again.
struct StoreFileImage: Sendable {
    /// The file's bytes.
    var bytes: Data
    /// What they decode to.
    var contents: OverrideFileFormat.Contents
    /// The overrides of ``contents`` in the byte order of their keys (``ByteOrderSort``), when known.
    var sorted: SortedOverrides?
    /// A number the store gives to no other image (``RevisionedOverrideStore``).
    var revision: UInt64

    /// Whether the file's bytes are `data`.
    func hasBytes(_ data: Data) -> Bool {
        guard bytes.count == data.count else { return false }
        return bytes.withUnsafeBytes { mine in
            data.withUnsafeBytes { theirs in
                guard let a = mine.baseAddress, let b = theirs.baseAddress else { return mine.count == theirs.count }
                return Platform.compareBytes(a, b, count: mine.count) == 0
            }
        }
    }

    /// The overrides after a change, in the byte order of their keys: those of `image` (the contents before the
    /// change) merged with the change's keys in their order, or all of `overrides` sorted afresh when the image
    /// has no order or overrides also expired.
    /// - Parameters:
    ///   - overrides: the overrides after the change.
    ///   - image: the file the change started from (`nil`: there was none, the change started from nothing).
    ///   - expired: overrides the change removed because they had expired.
    ///   - changed: the change's other keys (new `nil`: removed).
    ///   - changedOrder: the positions in `changed` in the byte order of their keys.
    static func sortedOverrides(
        of overrides: [String: OverrideValue], before image: StoreFileImage?, expired: [StoreSnapshot.ValueChange],
        changed: [StoreSnapshot.ValueChange], changedOrder: [Int]
    ) -> SortedOverrides {
        guard let previous = order(of: image), expired.isEmpty else { return SortedOverrides(sorting: overrides) }
        var result = SortedOverrides(keys: [], values: [])
        result.keys.reserveCapacity(overrides.count)
        result.values.reserveCapacity(overrides.count)
        var i = 0
        var j = 0
        while i < previous.keys.count || j < changedOrder.count {
            let change = j < changedOrder.count ? changed[changedOrder[j]] : nil
            if let change, i < previous.keys.count, previous.keys[i] == change.key {
                // Changed in place (or removed).
                if let new = change.new {
                    result.keys.append(previous.keys[i])
                    result.values.append(new)
                }
                i += 1
                j += 1
            } else if let change, i == previous.keys.count || Self.precedes(change.key, previous.keys[i]) {
                // Added.
                if let new = change.new {
                    result.keys.append(change.key)
                    result.values.append(new)
                }
                j += 1
            } else {
                result.keys.append(previous.keys[i])
                result.values.append(previous.values[i])
                i += 1
            }
        }
        return result
    }

    /// The overrides after a change and the change's keys in file order, for a change that involves no expiry:
    /// the image's overrides are walked in order, each looked up among `changes` (no sort of the change's keys
    /// unless it adds some: only those are sorted), and the changed ones listed as they come.
    /// - Parameters:
    ///   - image: the file the change started from (`nil`: there was none); must know its order when given.
    ///   - changes: the change as asked (new `nil`: remove).
    ///   - changed: what it changed (``StoreSnapshot/apply(_:expiries:)``), in any order.
    /// - Returns: `nil` when the image does not know its order.
    static func walk(
        _ image: StoreFileImage?, changes: [String: OverrideValue?], changed: [StoreSnapshot.ValueChange]
    ) -> (sorted: SortedOverrides, changed: [StoreSnapshot.ValueChange])? {
        guard let previous = order(of: image) else { return nil }
        // Keys the image does not have: the only ones to sort.
        let added = changed.filter { $0.old == nil }
        let addedOrder = ByteOrderSort.sortedIndices(added.map(\.key))
        var result = SortedOverrides(keys: [], values: [])
        result.keys.reserveCapacity(previous.keys.count + added.count)
        result.values.reserveCapacity(previous.keys.count + added.count)
        var inOrder: [StoreSnapshot.ValueChange] = []
        inOrder.reserveCapacity(changed.count)
        var i = 0
        var j = 0
        while i < previous.keys.count || j < addedOrder.count {
            if j < addedOrder.count,
                i == previous.keys.count || Self.precedes(added[addedOrder[j]].key, previous.keys[i])
            {
                let change = added[addedOrder[j]]
                if let new = change.new {
                    result.keys.append(change.key)
                    result.values.append(new)
                }
                inOrder.append(change)
                j += 1
                continue
            }
            let key = previous.keys[i]
            let old = previous.values[i]
            i += 1
            guard let asked = changes[key] else {
                result.keys.append(key)
                result.values.append(old)
                continue
            }
            if let new = asked {
                result.keys.append(key)
                result.values.append(new)
            }
            if asked != old { inOrder.append(StoreSnapshot.ValueChange(key: key, old: old, new: asked)) }
        }
        return (result, inOrder)
    }

    /// The overrides after a bulk change, and what it changed in file order: `value` (`nil`: removed) for every key
    /// of `sortedKeys`, merged with the image's overrides in one pass over both (no key is hashed or sorted).
    /// - Parameters:
    ///   - image: the file the change started from (`nil`: there was none); must know its order when given.
    ///   - sortedKeys: the keys changed, in byte order (``ByteOrderSort``), each once.
    ///   - value: the new value of every key.
    static func merge(_ image: StoreFileImage?, sortedKeys keys: [String], value: OverrideValue?) -> (
        sorted: SortedOverrides, changed: [StoreSnapshot.ValueChange]
    ) {
        assert(
            zip(keys, keys.dropFirst()).allSatisfy { ByteOrderSort.compare($0, $1) < 0 }, "keys not sorted, or repeated"
        )
        // A file this store read but did not write has no known order yet: its keys are sorted once here.
        let previous = order(of: image) ?? SortedOverrides(sorting: image?.contents.overrides ?? [:])
        var result = SortedOverrides(keys: [], values: [])
        let capacity = previous.keys.count + (value == nil ? 0 : keys.count)
        result.keys.reserveCapacity(capacity)
        result.values.reserveCapacity(capacity)
        var changed: [StoreSnapshot.ValueChange] = []
        changed.reserveCapacity(keys.count)
        var i = 0
        var j = 0
        while i < previous.keys.count || j < keys.count {
            let order =
                j == keys.count ? -1 : i == previous.keys.count ? 1 : ByteOrderSort.compare(previous.keys[i], keys[j])
            if order < 0 {
                result.keys.append(previous.keys[i])
                result.values.append(previous.values[i])
                i += 1
                continue
            }
            let old: OverrideValue? = order == 0 ? previous.values[i] : nil
            if order == 0 { i += 1 }
            let key = keys[j]
            j += 1
            if let value {
                result.keys.append(key)
                result.values.append(value)
            }
            if old != value { changed.append(StoreSnapshot.ValueChange(key: key, old: old, new: value)) }
        }
        return (result, changed)
    }

    /// The overrides of the file a change starts from, in order: none when there was no file, `nil` when the image
    /// does not know its order.
    private static func order(of image: StoreFileImage?) -> SortedOverrides? {
        guard let image else { return SortedOverrides(keys: [], values: []) }
        return image.sorted
    }

    /// Whether `a` comes before `b` in the byte order of their UTF-8.
    private static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

/// Overrides in the byte order of their keys: keys and values side by side.
struct SortedOverrides: Sendable {
    var keys: [String]
    var values: [OverrideValue]

    /// Overrides side by side.
    init(keys: [String], values: [OverrideValue]) {
        self.keys = keys
        self.values = values
    }

    /// The overrides of a dictionary, their keys sorted (``ByteOrderSort``).
    init(sorting overrides: [String: OverrideValue]) {
        keys = ByteOrderSort.sorted(Array(overrides.keys))
        values = keys.map { overrides[$0] ?? .off }  // every key is there
    }

    /// Whether `key` has an override (a binary search).
    func contains(_ key: String) -> Bool {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].utf8.lexicographicallyPrecedes(key.utf8) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low < keys.count && keys[low] == key
    }
}
