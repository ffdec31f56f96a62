import Flagstaff
import Testing

@testable import FlagstaffFlagd

/// Deterministic CBOR: vectors from the reference's encoder (cbor2 with `canonical=True`).
struct DeterministicCBORTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test(
        "encodes as cbor2 does",
        arguments: [
            (.number(0), "00"), (.number(23), "17"), (.number(24), "1818"), (.number(255), "18ff"),
            (.number(256), "190100"), (.number(65536), "1a00010000"), (.number(4_294_967_296), "1b0000000100000000"),
            (.number(-1), "20"), (.number(-24), "37"), (.number(-25), "3818"),
            (.number(-9_223_372_036_854_775_808), "3b7fffffffffffffff"), (.number(-0.0), "00"), (.number(2.0), "02"),
            (.number(0.5), "f93800"), (.number(1.1), "fb3ff199999999999a"), (.number(1e300), "fb7e37e43c8800759c"),
            (.number(1e20), "fb4415af1d78b58c40"), (.number(100000.5), "fa47c35040"),
            (.number(5.960464477539063e-08), "f90001"), (.number(-2.5), "f9c100"),
            (.number(1.401298464324817e-45), "fa00000001"), (.string("a"), "6161"), (.string("é"), "62c3a9"),
            (.bool(true), "f5"), (.bool(false), "f4"), (.null, "f6"),
            (.array([.number(1), .string("a"), .array([])]), "8301616180"),
            (.object(["b": .number(1), "aa": .number(2), "a": .null]), "a36161f661620162616102"),
        ] as [(JSONSettingValue, String)])
    func vectors(_ value: JSONSettingValue, _ expected: String) {
        #expect(Self.hex(DeterministicCBOR.encode(value)) == expected)
    }
}
