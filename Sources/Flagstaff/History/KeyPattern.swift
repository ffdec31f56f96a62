/// A glob on override keys: `*` matches any run of characters (dots included), `?` one character; anything
/// else matches itself. `checkout.*` matches `checkout.v2` and `checkout.express.enabled`.
///
/// Matching works on the key's UTF-8 bytes without copying them (`history --key` tests 100,000 keys).
package struct KeyPattern: Sendable, Equatable {
    private let pattern: [UInt8]

    /// Creates a pattern.
    package init(_ text: String) { pattern = Array(text.utf8) }

    /// Whether `key` matches the whole pattern.
    package func matches(_ key: String) -> Bool {
        var key = key
        return key.withUTF8 { matches($0) }
    }

    private func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let star = UInt8(ascii: "*")
        let question = UInt8(ascii: "?")
        /// The index after the character starting at `index` (a lead byte and its continuation bytes).
        func afterCharacter(_ index: Int) -> Int {
            var next = index + 1
            while next < text.count, text[next] & 0xC0 == 0x80 { next += 1 }
            return next
        }
        var p = 0
        var t = 0
        var starAt: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == question {
                p += 1
                t = afterCharacter(t)
            } else if p < pattern.count, pattern[p] != star, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == star {
                starAt = p
                resume = t
                p += 1
            } else if let starAt {
                p = starAt + 1
                resume = afterCharacter(resume)
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == star { p += 1 }
        return p == pattern.count
    }
}
