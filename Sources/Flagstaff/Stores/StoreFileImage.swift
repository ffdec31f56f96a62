import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A store file as a ``FileOverrideStore`` last read or wrote it, with what its bytes decode to and (after a
/// write) its keys in file order.
///
/// A read-modify-write reads the file every time, under the lock, so another process's write is never missed;
/// when the bytes are exactly those of the image (compared in full: about a millisecond for a 3 MB file of
/// 100,000 overrides), the decoded contents are taken from the image instead of parsing the file again, and a
/// change that adds or removes some keys merges them into the sorted key order instead of sorting every key.
struct StoreFileImage: Sendable {
    /// The file's bytes.
    var bytes: Data
    /// What they decode to.
    var contents: OverrideFileFormat.Contents
    /// The keys of ``contents`` in byte order (``ByteOrderSort``), when known.
    var sortedKeys: [String]?
    /// A number the store gives to no other image (``RevisionedOverrideStore``).
    var revision: UInt64

    /// Whether the file's bytes are `data`.
    func hasBytes(_ data: Data) -> Bool {
        guard bytes.count == data.count else { return false }
        return bytes.withUnsafeBytes { mine in
            data.withUnsafeBytes { theirs in
                guard let a = mine.baseAddress, let b = theirs.baseAddress else { return mine.count == theirs.count }
                return memcmp(a, b, mine.count) == 0
            }
        }
    }

    /// The keys of `overrides` in byte order: those of `image` (the contents before the change), with the keys
    /// `changes` removed taken out and those they added merged in, or all keys sorted afresh when the image has
    /// no order or most keys changed.
    /// - Parameters:
    ///   - overrides: the overrides after the change.
    ///   - image: the file the change started from, if it was read.
    ///   - changes: the change's groups of changed keys (old `nil`: added; new `nil`: removed).
    static func sortedKeys(
        of overrides: [String: OverrideValue], before image: StoreFileImage?, changes: [[StoreSnapshot.ValueChange]]
    ) -> [String] {
        let added = changes.joined().filter { $0.old == nil && $0.new != nil }.map(\.key)
        let removed = changes.joined().filter { $0.old != nil && $0.new == nil }.map(\.key)
        guard let previous = image?.sortedKeys, added.count + removed.count < overrides.count / 2 else {
            return ByteOrderSort.sorted(Array(overrides.keys))
        }
        if added.isEmpty && removed.isEmpty { return previous }
        let gone = Set(removed)
        let kept = gone.isEmpty ? previous : previous.filter { !gone.contains($0) }
        return merge(kept, ByteOrderSort.sorted(added))
    }

    /// Two sorted lists of distinct keys as one sorted list.
    private static func merge(_ a: [String], _ b: [String]) -> [String] {
        guard !b.isEmpty else { return a }
        var result: [String] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i].utf8.lexicographicallyPrecedes(b[j].utf8) {
                result.append(a[i])
                i += 1
            } else {
                result.append(b[j])
                j += 1
            }
        }
        result.append(contentsOf: a[i...])
        result.append(contentsOf: b[j...])
        return result
    }
}
