/// Bulk changes by member: the console's change to every marked flag.
extension AnyFeatureRegistry {
    /// Sorts the members in the byte order of their keys now, if not yet done, so that the first
    /// ``writeOnOffValue(_:toMembers:)`` does not (the console calls this in the background as it starts).
    package func prepareForBulkChanges() {
        _ = core.keyTable.featuresInByteOrder()
    }

    /// Gives every member of `members` the on/off value `value`, or removes their overrides (`nil`), in one store
    /// write (one undo step).
    ///
    /// The members are taken in the byte order of their keys (sorted once per member list and kept), so the
    /// store merges the change into its file order and the registry applies it to these members without looking
    /// a key up or sorting one. `on`/`off` must only be given to on/off members (flags and Boolean settings, which
    /// all accept them); the caller checked that (this is not checked again). Ordinals this registry does not have
    /// are ignored.
    /// - Parameters:
    ///   - value: `.on`, `.off`, or `nil` to remove the overrides.
    ///   - members: members by ``AnyFeature/registryOrdinal``.
    /// - Throws: the store's error; on error nothing changes.
    package func writeOnOffValue(_ value: OverrideValue?, toMembers members: MemberSet) throws {
        assert(value == nil || value == .on || value == .off, "not an on/off change")
        let written = WrittenMembers(members, of: core.keyTable.featuresInByteOrder())
        guard !written.keys.isEmpty else { return }
        try write(
            revisioned: { store, known in try store.update(sortedKeys: written.keys, value: value, known: known) },
            plain: { store in
                try store.update(
                    [String: OverrideValue?](giving: value, to: written.keys),
                    expiries: [:])
            },
            members: written)
    }
}

/// The members a bulk write changes: their keys in byte order (each once) and the member of each.
struct WrittenMembers: Sendable {
    var keys: [String] = []
    var features: [AnyFeature] = []

    /// The members of `set`, taken from all members in byte order; of members sharing a key, the first.
    init(_ set: MemberSet, of all: MembersInByteOrder) {
        keys.reserveCapacity(set.count)
        features.reserveCapacity(set.count)
        for (position, ordinal) in all.ordinals.enumerated() where set.contains(Int(ordinal)) {
            let key = all.keys[position]
            if let last = keys.last, last == key { continue }
            keys.append(key)
            features.append(all.features[position])
        }
    }

    /// A reader that finds members by key when asked for keys in byte order, from `key` on (a binary search) or
    /// from the first.
    func cursor(from key: String?) -> Cursor {
        guard let key else { return Cursor(members: self) }
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if ByteOrderSort.compare(keys[middle], key) < 0 { low = middle + 1 } else { high = middle }
        }
        return Cursor(members: self, position: low)
    }

    /// Finds members by keys asked in byte order, moving forward only.
    struct Cursor {
        let members: WrittenMembers
        var position = 0

        /// The member with `key`, or `nil` when none of the remaining ones has it.
        mutating func member(forKey key: String) -> AnyFeature? {
            let keys = members.keys
            while position < keys.count, keys[position] != key {
                guard ByteOrderSort.compare(keys[position], key) < 0 else { return nil }
                position += 1
            }
            return position < keys.count ? members.features[position] : nil
        }
    }
}
