/// A compiled `Regex` shared by all threads evaluating a state.
///
/// `@unchecked Sendable` because `Regex<AnyRegexOutput>` is not declared `Sendable` (its output type is not).
/// Sharing it is safe here: the value is immutable after construction, matching only reads it, and the one piece
/// of lazily built internal state (the lowered matching program, cached with an atomic compare-and-swap by the
/// standard library) is built right here in `init`, before the value can reach a second thread.
final class SharedRegex: @unchecked Sendable {
    private let regex: Regex<AnyRegexOutput>

    init(_ regex: Regex<AnyRegexOutput>) {
        self.regex = regex
        _ = "".contains(regex)
    }

    /// Whether the pattern matches anywhere in `text` (unanchored, as RE2's `is_match`).
    @inline(__always)
    func matches(_ text: String) -> Bool { text.contains(regex) }
}
