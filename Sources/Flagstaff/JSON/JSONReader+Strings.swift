/// Strings: a fast path for text without escapes, full JSON escapes, strict UTF-8.
extension JSONReader {
    /// Reads a string at `"`. Text without escapes comes back as its bytes (checked UTF-8).
    package mutating func readStringToken() throws(ReadFailure) -> StringToken {
        let quote = offset
        var index = offset + 1
        while true {
            // Eight bytes at a time up to the first quote, backslash, control character or non-ASCII byte.
            while index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let special = Self.specialBytes(word)
                if special != 0 {
                    index += special.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < count else { break }
            let value = base[index]
            if value == UInt8(ascii: "\"") {
                offset = index + 1
                return .raw(UnsafeBufferPointer(start: base + quote + 1, count: index - quote - 1))
            }
            if value == UInt8(ascii: "\\") || value < 0x20 { break }
            index = value < 0x80 ? index + 1 : try utf8SequenceEnd(at: index)
        }
        return .decoded(try readEscapedString(quote: quote, from: index))
    }

    /// The high bit of each byte of `word` (first byte lowest) that is `"`, `\`, below 0x20 or 0x80 and
    /// above. Borrows can also mark bytes after a marked one, never before, so the lowest mark is exact.
    @inline(__always) private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let zeroInQuote = (quote &- ones) & ~quote
        let zeroInBackslash = (backslash &- ones) & ~backslash
        let belowSpace = (word &- ones &* 0x20) & ~word
        return (zeroInQuote | zeroInBackslash | belowSpace | word) & (ones &* 0x80)
    }

    /// Continues a string from its first escape (or control character, or the end of the input).
    private mutating func readEscapedString(quote: Int, from start: Int) throws(ReadFailure) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(start - quote + 16)
        text.append(contentsOf: UnsafeBufferPointer(start: base + quote + 1, count: start - quote - 1))
        var index = start
        while index < count {
            let value = base[index]
            switch value {
            case UInt8(ascii: "\""):
                offset = index + 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index = try appendEscape(at: index, quote: quote, to: &text)
            case 0..<0x20:
                let code = "U+00" + (value < 0x10 ? "0" : "") + String(value, radix: 16, uppercase: true)
                throw syntaxError(
                    "control character \(code) in a string (write it as an escape such as \\n or \\u00XX)", at: index)
            case 0x20..<0x80:
                text.append(value)
                index += 1
            default:
                let end = try utf8SequenceEnd(at: index)
                text.append(contentsOf: UnsafeBufferPointer(start: base + index, count: end - index))
                index = end
            }
        }
        throw syntaxError("unterminated string (no closing '\"')", at: quote)
    }

    /// Decodes the escape at `index` (a backslash) into `text`; returns the index after it.
    private func appendEscape(at index: Int, quote: Int, to text: inout [UInt8]) throws(ReadFailure) -> Int {
        guard index + 1 < count else { throw syntaxError("unterminated string (no closing '\"')", at: quote) }
        if base[index + 1] == UInt8(ascii: "u") { return try appendUnicodeEscape(at: index, to: &text) }
        guard let simple = JSONText.unescaped(base[index + 1]) else {
            throw syntaxError(
                "invalid escape: \\ followed by \(describe(at: index + 1)) (expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                at: index)
        }
        text.append(simple)
        return index + 2
    }

    /// Decodes `\uXXXX`, or a surrogate pair `\uD83D\uDE00`, at `index`.
    private func appendUnicodeEscape(at index: Int, to text: inout [UInt8]) throws(ReadFailure) -> Int {
        guard let unit = hex4(at: index + 2) else {
            throw syntaxError("invalid \\u escape (expected four hexadecimal digits)", at: index)
        }
        var scalar = unit
        var end = index + 6
        if (0xD800..<0xDC00).contains(unit) {
            guard end + 1 < count, base[end] == UInt8(ascii: "\\"), base[end + 1] == UInt8(ascii: "u"),
                let low = hex4(at: end + 2), (0xDC00..<0xE000).contains(low)
            else {
                throw syntaxError(
                    "lone surrogate \\u\(String(unit, radix: 16, uppercase: true)) (a high surrogate must be followed by a low surrogate \\uDC00–\\uDFFF)",
                    at: index)
            }
            scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            end += 6
        } else if (0xDC00..<0xE000).contains(unit) {
            throw syntaxError(
                "lone surrogate \\u\(String(unit, radix: 16, uppercase: true)) (a low surrogate must follow a high surrogate \\uD800–\\uDBFF)",
                at: index)
        }
        switch scalar {
        case 0..<0x80:
            text.append(UInt8(scalar))
        case 0x80..<0x800:
            text.append(UInt8(0xC0 | (scalar >> 6)))
            text.append(UInt8(0x80 | (scalar & 0x3F)))
        case 0x800..<0x10000:
            text.append(UInt8(0xE0 | (scalar >> 12)))
            text.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            text.append(UInt8(0x80 | (scalar & 0x3F)))
        default:
            text.append(UInt8(0xF0 | (scalar >> 18)))
            text.append(UInt8(0x80 | ((scalar >> 12) & 0x3F)))
            text.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            text.append(UInt8(0x80 | (scalar & 0x3F)))
        }
        return end
    }

    /// Four hexadecimal digits at `index`, or `nil`.
    private func hex4(at index: Int) -> UInt32? {
        guard index >= 0, index + 4 <= count else { return nil }
        var value: UInt32 = 0
        for position in index..<(index + 4) {
            let digit = base[position]
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(digit - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(digit - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(digit - UInt8(ascii: "A") + 10)
            default: return nil
            }
        }
        return value
    }

    /// The end of the UTF-8 sequence starting at `index` (a byte ≥ 0x80): rejects stray continuation bytes,
    /// overlong forms, surrogates, values above U+10FFFF and truncated sequences.
    func utf8SequenceEnd(at index: Int) throws(ReadFailure) -> Int {
        let lead = base[index]
        func continuation(_ position: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            position < count && range.contains(base[position])
        }
        let valid: Bool
        let length: Int
        switch lead {
        case 0xC2...0xDF:
            length = 2
            valid = continuation(index + 1)
        case 0xE0...0xEF:
            length = 3
            let second: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
            valid = continuation(index + 1, second) && continuation(index + 2)
        case 0xF0...0xF4:
            length = 4
            let second: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
            valid = continuation(index + 1, second) && continuation(index + 2) && continuation(index + 3)
        default:
            length = 1
            valid = false
        }
        guard valid else {
            let hex = String(lead, radix: 16, uppercase: true)
            throw syntaxError(
                "invalid UTF-8 (a sequence starting with byte 0x\(hex)); JSON text must be UTF-8", at: index)
        }
        return index + length
    }
}
