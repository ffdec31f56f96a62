import Testing

@testable import FlagstaffFlagd

/// MurmurHash3 x86 32-bit, seed 0: vectors from the reference (Python's mmh3) and the test bed's edge keys.
struct MurmurHash3Tests {
    @Test(
        "hashes as mmh3 does",
        arguments: [
            ("", 0), ("hello", 613_153_351), ("ejOoVL", 0), ("bY9fO-", 1), ("SI7p-", 2_147_483_647),
            ("6LvT0", 2_147_483_648), ("ceQdGm", 4_294_967_295),
            ("fractional-flag-shorthandjon@company.com", 618_039_204), ("é😀", 3_685_116_680),
        ] as [(String, UInt32)])
    func vectors(_ text: String, _ expected: UInt32) {
        #expect(MurmurHash3.hash32(text.utf8) == expected)
    }

    @Test("a hash fed in pieces is the hash of the whole")
    func pieces() {
        var state = MurmurHash3.State(seed: 0)
        state.add(contentsOf: "fractional-flag-shorthand".utf8)
        state.add(contentsOf: "jon@company.com".utf8)
        #expect(state.finish() == 618_039_204)
    }
}
