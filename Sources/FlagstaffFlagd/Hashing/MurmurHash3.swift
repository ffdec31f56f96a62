/// MurmurHash3, x86 32-bit variant (Austin Appleby's public-domain algorithm), as flagd's `fractional` uses it.
enum MurmurHash3 {
    /// The 32-bit hash of `bytes` with `seed`, read as unsigned.
    static func hash32<Bytes: Sequence<UInt8>>(_ bytes: Bytes, seed: UInt32 = 0) -> UInt32 {
        var state = State(seed: seed)
        for byte in bytes { state.add(byte) }
        return state.finish()
    }

    /// The hash of `bytes` fed in pieces: `add` one byte at a time, then `finish`.
    struct State {
        private var hash: UInt32
        private var block: UInt32 = 0
        private var pending = 0
        private var length = 0

        private static let c1: UInt32 = 0xcc9e_2d51
        private static let c2: UInt32 = 0x1b87_3593

        init(seed: UInt32) { hash = seed }

        @inline(__always) mutating func add(_ byte: UInt8) {
            block |= UInt32(byte) << (8 * UInt32(pending))
            pending += 1
            length += 1
            if pending == 4 {
                var k = block &* Self.c1
                k = (k << 15) | (k >> 17)
                k = k &* Self.c2
                hash ^= k
                hash = (hash << 13) | (hash >> 19)
                hash = hash &* 5 &+ 0xe654_6b64
                block = 0
                pending = 0
            }
        }

        mutating func add<Bytes: Sequence<UInt8>>(contentsOf bytes: Bytes) {
            for byte in bytes { add(byte) }
        }

        func finish() -> UInt32 {
            var hash = self.hash
            if pending > 0 {
                var k = block &* Self.c1
                k = (k << 15) | (k >> 17)
                k = k &* Self.c2
                hash ^= k
            }
            hash ^= UInt32(truncatingIfNeeded: length)
            hash ^= hash >> 16
            hash = hash &* 0x85eb_ca6b
            hash ^= hash >> 13
            hash = hash &* 0xc2b2_ae35
            hash ^= hash >> 16
            return hash
        }
    }
}
