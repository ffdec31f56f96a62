/// A set of a registry's members by their registration ordinal (``AnyFeature/registryOrdinal``): one bit each.
///
/// The console's marks: marking 100,000 listed flags sets 100,000 bits (no key is hashed), and a change to every
/// marked member reaches the registry as this set (``AnyFeatureRegistry/writeOnOffValue(_:toMembers:)``).
package struct MemberSet: Sendable, Equatable {
    private var words: [UInt64] = []
    /// The number of members in the set.
    package private(set) var count = 0

    /// An empty set.
    package init() {}

    /// A set of these ordinals (negative ones are ignored).
    package init(_ ordinals: some Sequence<Int>) {
        for ordinal in ordinals { insert(ordinal) }
    }

    /// Whether the set is empty.
    package var isEmpty: Bool { count == 0 }

    /// Whether the member with this ordinal is in the set.
    package func contains(_ ordinal: Int) -> Bool {
        guard ordinal >= 0, ordinal >> 6 < words.count else { return false }
        return words[ordinal >> 6] & (1 << UInt64(ordinal & 63)) != 0
    }

    /// Adds a member.
    /// - Returns: whether it was not in the set before.
    @discardableResult
    package mutating func insert(_ ordinal: Int) -> Bool {
        guard ordinal >= 0 else { return false }
        let word = ordinal >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        let bit: UInt64 = 1 << UInt64(ordinal & 63)
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        count += 1
        return true
    }

    /// Removes a member.
    /// - Returns: whether it was in the set.
    @discardableResult
    package mutating func remove(_ ordinal: Int) -> Bool {
        guard contains(ordinal) else { return false }
        words[ordinal >> 6] &= ~(1 << UInt64(ordinal & 63))
        count -= 1
        return true
    }

    /// Makes room for ordinals below `bound` (one allocation before many inserts).
    package mutating func reserveCapacity(upTo bound: Int) {
        let needed = (bound + 63) >> 6
        if needed > words.count { words.append(contentsOf: repeatElement(0, count: needed - words.count)) }
    }

    /// Calls `body` with every ordinal in the set, smallest first.
    package func forEach(_ body: (Int) throws -> Void) rethrows {
        for (index, word) in words.enumerated() where word != 0 {
            var rest = word
            while rest != 0 {
                try body(index << 6 + rest.trailingZeroBitCount)
                rest &= rest - 1
            }
        }
    }

    /// The ordinals in the set, smallest first.
    package var ordinals: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        forEach { result.append($0) }
        return result
    }

    /// Equal when they hold the same members (however much room each made).
    package static func == (a: MemberSet, b: MemberSet) -> Bool {
        guard a.count == b.count else { return false }
        let shared = min(a.words.count, b.words.count)
        guard a.words[..<shared] == b.words[..<shared] else { return false }
        return a.words[shared...].allSatisfy { $0 == 0 } && b.words[shared...].allSatisfy { $0 == 0 }
    }
}
