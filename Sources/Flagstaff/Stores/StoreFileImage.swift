import Foundation

/// A store file as a ``FileOverrideStore`` last read or wrote it, with what its bytes decode to and (after a
/// write) its overrides in file order.
///
/// A read-modify-write reads the file every time, under the lock, so another process's write is never missed;
/// when the bytes are exactly those of the image (compared in full, far cheaper than parsing), the decoded
/// contents are taken from the image instead of parsing the file again, and a change is merged into the
/// overrides in file order instead of sorting every key and looking every value up again.
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

    /// The overrides of the file a change starts from, in byte order: none when there was no file; sorted here
    /// once when this store read the file but did not write it (a written image keeps its order).
    static func order(of image: StoreFileImage?) -> SortedOverrides {
        guard let image else { return SortedOverrides(keys: [], values: []) }
        return image.sorted ?? SortedOverrides(sorting: image.contents.overrides)
    }

    /// The overrides after a change, in byte order, and what it changed, in the same order: the change's keys
    /// (already in byte order) merged with `previous` in one pass over both, no key hashed or sorted. One route for
    /// every change: a change of one key walks the file's keys once, as encoding the file does anyway.
    /// - Parameters:
    ///   - previous: the overrides before the change, in byte order.
    ///   - change: the change.
    ///   - expiries: the expiries before the change (each change then carries the expiry before and after, when
    ///     either has any).
    static func merge(_ previous: SortedOverrides, _ change: OverrideChange, expiries: [String: OverrideExpiry]) -> (
        sorted: SortedOverrides, changed: [StoreSnapshot.ValueChange]
    ) {
        let involvesExpiry = !expiries.isEmpty || !change.expiries.isEmpty
        let keys = change.keys
        var result = SortedOverrides(keys: [], values: [])
        let capacity = previous.keys.count + keys.count
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
            let new = change.edits[j].value
            j += 1
            if let new {
                result.keys.append(key)
                result.values.append(new)
            }
            var entry = StoreSnapshot.ValueChange(key: key, old: old, new: new)
            if involvesExpiry { entry.noteExpiries(before: expiries, after: change) }
            if entry.changesSomething { changed.append(entry) }
        }
        return (result, changed)
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
