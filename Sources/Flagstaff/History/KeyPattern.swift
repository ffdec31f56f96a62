/// A glob on override keys: `*` matches any run of characters (dots included), `?` one character; anything
/// else matches itself. `checkout.*` matches `checkout.v2` and `checkout.express.enabled`.
package struct KeyPattern: Sendable, Equatable {
    private let pattern: [Character]

    /// Creates a pattern.
    package init(_ text: String) { pattern = Array(text) }

    /// Whether `key` matches the whole pattern.
    package func matches(_ key: String) -> Bool {
        let text = Array(key)
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t]) {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                resume = t
                p += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
