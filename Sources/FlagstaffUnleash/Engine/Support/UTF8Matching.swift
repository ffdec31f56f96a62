/// Byte-wise prefix, suffix and substring tests on UTF-8, as Unleash's reference engine does them (Rust's `str`
/// methods compare bytes; Swift's `String` methods compare by canonical equivalence, which is slower and can
/// disagree on un-normalised text).
///
/// With `foldASCII`, bytes `A`–`Z` of the text compare as `a`–`z`: the case-insensitive operators use this for
/// all-ASCII text (their values are stored lower-cased), which avoids building a lower-cased copy per evaluation.
enum UTF8Matching {
    @inline(__always)
    private static func byte(_ value: UInt8, fold: Bool) -> UInt8 {
        fold && value >= 65 && value <= 90 ? value | 0x20 : value
    }

    /// Whether every byte of `text` is ASCII.
    @inline(__always)
    static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            for value in bytes where value >= 0x80 { return false }
            return true
        }
    }

    @inline(__always)
    static func hasPrefix(_ text: String, _ prefix: [UInt8], foldASCII: Bool = false) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= prefix.count else { return false }
            for index in prefix.indices where byte(bytes[index], fold: foldASCII) != prefix[index] { return false }
            return true
        }
    }

    @inline(__always)
    static func hasSuffix(_ text: String, _ suffix: [UInt8], foldASCII: Bool = false) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= suffix.count else { return false }
            let offset = bytes.count - suffix.count
            for index in suffix.indices where byte(bytes[offset + index], fold: foldASCII) != suffix[index] {
                return false
            }
            return true
        }
    }

    @inline(__always)
    static func contains(_ text: String, _ needle: [UInt8], foldASCII: Bool = false) -> Bool {
        if needle.isEmpty { return true }
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            var start = 0
            while start <= bytes.count - needle.count {
                var index = 0
                while index < needle.count, byte(bytes[start + index], fold: foldASCII) == needle[index] { index += 1 }
                if index == needle.count { return true }
                start += 1
            }
            return false
        }
    }
}
