import Flagstaff

/// The deterministic CBOR encoding (RFC 8949 §4.2) of a JSON value, as flagd's bucketing version 3 hashes it.
///
/// Numbers are normalised first: a whole number within the 64-bit integer range (−2⁶³ … 2⁶⁴−1) is an integer
/// (`-0.0` is `0`); any other number is the shortest float (half, single, double) that holds it exactly. Map keys
/// are sorted by their encoded bytes (for text keys: shorter first, then bytewise). Text is UTF-8.
enum DeterministicCBOR {
    /// The encoding of `value`.
    static func encode(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return bytes
    }

    static func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(0xF6)
        case .bool(let flag): bytes.append(flag ? 0xF5 : 0xF4)
        case .number(let number): appendNumber(number, to: &bytes)
        case .string(let text): appendText(text, to: &bytes)
        case .array(let elements):
            appendHead(major: 4, UInt64(elements.count), to: &bytes)
            for element in elements { append(element, to: &bytes) }
        case .object(let members):
            appendHead(major: 5, UInt64(members.count), to: &bytes)
            let keyed = members.map { member -> (key: [UInt8], value: JSONValue) in
                var key: [UInt8] = []
                appendText(member.key, to: &key)
                return (key, member.value)
            }
            for member in keyed.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                bytes.append(contentsOf: member.key)
                append(member.value, to: &bytes)
            }
        }
    }

    static func appendText(_ text: String, to bytes: inout [UInt8]) {
        appendHead(major: 3, UInt64(text.utf8.count), to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }

    /// A head: the major type and the argument in the fewest bytes.
    static func appendHead(major: UInt8, _ argument: UInt64, to bytes: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            bytes.append(type | UInt8(argument))
        case 24...0xFF:
            bytes.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xFFFF:
            bytes.append(type | 25)
            appendBigEndian(argument, count: 2, to: &bytes)
        case 0x1_0000...0xFFFF_FFFF:
            bytes.append(type | 26)
            appendBigEndian(argument, count: 4, to: &bytes)
        default:
            bytes.append(type | 27)
            appendBigEndian(argument, count: 8, to: &bytes)
        }
    }

    private static func appendBigEndian(_ value: UInt64, count: Int, to bytes: inout [UInt8]) {
        for index in stride(from: count - 1, through: 0, by: -1) {
            bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))))
        }
    }

    static func appendNumber(_ number: Double, to bytes: inout [UInt8]) {
        if number.isFinite, number == number.rounded(.towardZero) {
            if number >= 0, number < 18_446_744_073_709_551_616.0 {
                appendHead(major: 0, UInt64(number), to: &bytes)
                return
            }
            if number < 0, number >= -9_223_372_036_854_775_808.0 {
                // Major type 1 holds -1 - n: n = |number| - 1 (|number| ≤ 2⁶³ fits a UInt64 exactly).
                let magnitude = UInt64(-number) - 1
                appendHead(major: 1, magnitude, to: &bytes)
                return
            }
        }
        if let half = halfBits(number) {
            bytes.append(0xF9)
            appendBigEndian(UInt64(half), count: 2, to: &bytes)
        } else if Double(Float(number)) == number {
            bytes.append(0xFA)
            appendBigEndian(UInt64(Float(number).bitPattern), count: 4, to: &bytes)
        } else {
            bytes.append(0xFB)
            appendBigEndian(number.bitPattern, count: 8, to: &bytes)
        }
    }

    /// The IEEE 754 half-precision bits of `number` when it holds `number` exactly (finite, non-zero here).
    /// Written out rather than with `Float16`, which some Apple platforms lack.
    static func halfBits(_ number: Double) -> UInt16? {
        guard number.isFinite, number != 0 else { return nil }
        let sign: UInt16 = number.sign == .minus ? 0x8000 : 0
        let magnitude = abs(number)
        let exponent = Int(magnitude.exponent)
        guard exponent <= 15, exponent >= -24 else { return nil }
        if exponent >= -14 {
            // Normal: 10 fraction bits.
            let scaled = magnitude.significand * 1024
            guard scaled == scaled.rounded(.towardZero) else { return nil }
            let fraction = UInt16(scaled) - 1024
            return sign | UInt16(exponent + 15) << 10 | fraction
        }
        // Subnormal: a multiple of 2⁻²⁴.
        let units = magnitude * 16_777_216
        guard units == units.rounded(.towardZero) else { return nil }
        return sign | UInt16(units)
    }
}
