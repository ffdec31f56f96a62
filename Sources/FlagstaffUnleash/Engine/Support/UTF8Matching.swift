/// Byte-wise prefix, suffix and substring tests on UTF-8, as Unleash's reference engine does them (Rust's `str`
/// methods compare bytes; Swift's `String` methods compare by canonical equivalence, which is slower and can
/// disagree on un-normalised text).
enum UTF8Matching {
    @inline(__always)
    static func hasPrefix(_ text: String, _ prefix: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= prefix.count else { return false }
            for index in prefix.indices where bytes[index] != prefix[index] { return false }
            return true
        }
    }

    @inline(__always)
    static func hasSuffix(_ text: String, _ suffix: [UInt8]) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= suffix.count else { return false }
            let offset = bytes.count - suffix.count
            for index in suffix.indices where bytes[offset + index] != suffix[index] { return false }
            return true
        }
    }

    @inline(__always)
    static func contains(_ text: String, _ needle: [UInt8]) -> Bool {
        if needle.isEmpty { return true }
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.count >= needle.count else { return false }
            let first = needle[0]
            var start = 0
            while start <= bytes.count - needle.count {
                if bytes[start] == first {
                    var index = 1
                    while index < needle.count, bytes[start + index] == needle[index] { index += 1 }
                    if index == needle.count { return true }
                }
                start += 1
            }
            return false
        }
    }
}
