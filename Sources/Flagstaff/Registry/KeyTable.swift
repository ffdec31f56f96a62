/// Lock-free keyed lookup and member lists: an immutable open-addressing key → flag table, with the registry's
/// flag and group lists as of the same moment, published in a ``PublishedReference``.
///
/// A table is replaced (not changed) when flags are registered: the new one holds the previous table's entries
/// and the flags added since (the registry's state keeps only those, so no second key → flag dictionary lives
/// beside the table). Tables are published once after discovery or a manifest load, and once per runtime
/// registration call (use the batch `register(_:in:)` overload for many flags). Memory and probing:
/// docs/performance.md, "Looking a key up".
final class KeyTable: @unchecked Sendable {
    // @unchecked: the slots are written only in `init` and freed in `deinit`; in between they are only read.
    /// An open-addressing slot: the key's hash, the key and its flag (`nil` when empty).
    struct Slot: Sendable {
        var hash: UInt64
        var key: String
        var feature: AnyFeature?
    }

    /// Plain memory rather than an array: a lookup then touches no reference count that other threads'
    /// lookups also touch (an array's buffer would be retained and released by every lookup on every thread).
    private let slots: UnsafeMutableBufferPointer<Slot>
    /// The number of flags in the table.
    let count: Int
    /// 1 for a table built from none, then one more than the table it was built from.
    let version: Int
    /// The registry's flags, top-level flags and top-level groups when the table was published.
    let members: RegistryMembers
    /// `members.features` in the byte order of their keys, made on first use.
    private let byteOrder = AnnotatedMutex<MembersInByteOrder?>(nil)

    /// Builds a table of `previous`'s entries and `added` (keys not in `previous`).
    /// - Parameters:
    ///   - previous: the table published before, if any.
    ///   - added: flags registered since, by key.
    ///   - members: the member lists to publish with it.
    init(previous: KeyTable? = nil, adding added: [String: AnyFeature], members: RegistryMembers = RegistryMembers()) {
        self.members = members
        count = (previous?.count ?? 0) + added.count
        version = (previous?.version ?? 0) + 1
        // At most two thirds full; any size, not a power of two, so memory follows the flag count.
        let capacity = max(16, count + count / 2 + 1)
        let slots = UnsafeMutableBufferPointer<Slot>.allocate(capacity: capacity)
        slots.initialize(repeating: Slot(hash: 0, key: "", feature: nil))
        func insert(_ slot: Slot) {
            var index = Self.index(slot.hash, capacity)
            while slots[index].feature != nil { index = index + 1 == capacity ? 0 : index + 1 }
            slots[index] = slot
        }
        if let previous {
            for slot in previous.slots where slot.feature != nil { insert(slot) }
        }
        for (key, feature) in added {
            insert(Slot(hash: Self.hash(key), key: key, feature: feature))
        }
        self.slots = slots
    }

    /// ``members``' features in the byte order of their keys (``ByteOrderSort``; members sharing a key are next to
    /// each other), sorted on the first call and kept.
    func featuresInByteOrder() -> MembersInByteOrder {
        byteOrder.withLock { cached in
            if let cached { return cached }
            let features = members.features
            let keys = features.map(\.key)
            let order = ByteOrderSort.sortedIndices(keys)
            let sorted = MembersInByteOrder(
                ordinals: order.map { Int32(truncatingIfNeeded: $0) }, keys: order.map { keys[$0] },
                features: order.map { features[$0] })
            cached = sorted
            return sorted
        }
    }

    deinit {
        _ = slots.deinitialize()
        slots.deallocate()
    }

    /// The first slot to probe for a hash.
    private static func index(_ hash: UInt64, _ capacity: Int) -> Int {
        Int(truncatingIfNeeded: hash % UInt64(truncatingIfNeeded: capacity))
    }

    /// The flag with this key: FNV-1a over the UTF-8 bytes (cheaper than the standard library's seeded
    /// hashing for short keys), then linear probing.
    func lookup(_ key: String) -> AnyFeature? {
        slot(of: key).flatMap { slots[$0].feature }
    }

    /// The position of the slot holding `key`, or `nil`. Compares in place: binding every probed slot's flag
    /// would retain and release it.
    private func slot(of key: String) -> Int? {
        let hash = Self.hash(key)
        let capacity = slots.count
        var index = Self.index(hash, capacity)
        while slots[index].feature != nil {
            if slots[index].hash == hash && slots[index].key == key { return index }
            index = index + 1 == capacity ? 0 : index + 1
        }
        return nil
    }

    static func hash(_ key: String) -> UInt64 {
        func fnv<S: Sequence<UInt8>>(_ bytes: S) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            return hash ^ (hash >> 29)
        }
        return key.utf8.withContiguousStorageIfAvailable { fnv($0) } ?? fnv(key.utf8)
    }
}

/// The registry's current `KeyTable`, read without a lock.
struct PublishedKeyTable: ~Copyable, Sendable {
    private let current = PublishedReference(KeyTable(adding: [:]))

    /// Publishes a new table.
    func publish(_ table: KeyTable) {
        current.publish(table)
    }

    /// Looks a key up in the current table.
    func lookup(_ key: String) -> AnyFeature? {
        current.read { $0.lookup(key) }
    }

    /// The current table's features in the byte order of their keys (``KeyTable/featuresInByteOrder()``).
    func featuresInByteOrder() -> MembersInByteOrder {
        // Outside the read: the first call sorts, which is too long to hold up writers.
        current.read { $0 }.featuresInByteOrder()
    }

    /// The member lists of the current table.
    var members: RegistryMembers {
        current.read { $0.members }
    }

    /// The current table's ``KeyTable/version`` (for tests).
    var version: Int { current.read { $0.version } }
}

/// A registry's flag and group lists at one moment, for lock-free reads of `allFeatures`, `rootFeatures` and
/// `groups`.
struct RegistryMembers: @unchecked Sendable {
    // @unchecked: immutable once published; the flags and groups are Sendable classes.
    var features: [AnyFeature] = []
    var rootFeatures: [AnyFeature] = []
    var groups: [RegistryGroup] = []
}

/// A registry's members in the byte order of their keys (``ByteOrderSort``), side by side: ordinal, key, member.
struct MembersInByteOrder: @unchecked Sendable {
    // @unchecked: immutable; the members are Sendable classes.
    var ordinals: [Int32] = []
    var keys: [String] = []
    var features: [AnyFeature] = []
}
