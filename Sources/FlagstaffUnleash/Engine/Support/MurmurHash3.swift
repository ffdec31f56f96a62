/// MurmurHash3, x86 32-bit variant, as Unleash uses it to place identifiers into rollout buckets.
///
/// Unleash hashes the UTF-8 bytes of `"<groupId>:<identifier>"`. The group prefix is fixed per strategy, so
/// the engine keeps its bytes (colon included) pre-encoded and streams the identifier after it, which avoids
/// building a new string on every evaluation.
struct MurmurHash3: Sendable {
    private var h1: UInt32
    private var tail: UInt32 = 0
    private var tailCount: UInt32 = 0
    private var length: UInt32 = 0

    private static let c1: UInt32 = 0xcc9e_2d51
    private static let c2: UInt32 = 0x1b87_3593

    /// Seed Unleash uses for rollout percentages.
    static let rolloutSeed: UInt32 = 0
    /// Seed Unleash uses when it picks a variant (`86028157`), so variant buckets are independent of rollout buckets.
    static let variantSeed: UInt32 = 86_028_157

    init(seed: UInt32) { h1 = seed }

    @inline(__always)
    private static func rotl(_ x: UInt32, _ r: UInt32) -> UInt32 { (x << r) | (x >> (32 &- r)) }

    @inline(__always)
    private static func scramble(_ k: UInt32) -> UInt32 {
        var k1 = k &* c1
        k1 = rotl(k1, 15)
        return k1 &* c2
    }

    /// Feeds one byte.
    @inline(__always)
    mutating func add(_ byte: UInt8) {
        tail |= UInt32(byte) << (tailCount &* 8)
        tailCount &+= 1
        length &+= 1
        if tailCount == 4 {
            h1 ^= Self.scramble(tail)
            h1 = Self.rotl(h1, 13)
            h1 = h1 &* 5 &+ 0xe654_6b64
            tail = 0
            tailCount = 0
        }
    }

    /// Feeds a byte sequence.
    @inline(__always)
    mutating func add<S: Sequence>(bytes: S) where S.Element == UInt8 {
        for byte in bytes { add(byte) }
    }

    /// Feeds the UTF-8 encoding of a string.
    @inline(__always)
    mutating func add(utf8 string: String) {
        for byte in string.utf8 { add(byte) }
    }

    /// Finishes the hash.
    func finalize() -> UInt32 {
        var h = h1
        if tailCount > 0 { h ^= Self.scramble(tail) }
        h ^= length
        h ^= h >> 16
        h = h &* 0x85eb_ca6b
        h ^= h >> 13
        h = h &* 0xc2b2_ae35
        h ^= h >> 16
        return h
    }

    /// Hashes `prefix` followed by the UTF-8 bytes of `identifier`.
    static func hash(prefix: [UInt8], identifier: String, seed: UInt32) -> UInt32 {
        var hasher = MurmurHash3(seed: seed)
        hasher.add(bytes: prefix)
        hasher.add(utf8: identifier)
        return hasher.finalize()
    }

    /// The 1-based bucket of `"<group>:<identifier>"` among `modulus` buckets, as the Unleash specification defines
    /// normalisation: `murmur3(group + ":" + identifier, seed) % modulus + 1`.
    static func normalizedValue(prefix: [UInt8], identifier: String, modulus: UInt32, seed: UInt32) -> Int {
        Int(hash(prefix: prefix, identifier: identifier, seed: seed) % modulus) + 1
    }

    /// The pre-encoded `"<group>:"` prefix for a group id.
    static func prefix(forGroup group: String) -> [UInt8] { Array(group.utf8) + [UInt8(ascii: ":")] }
}
