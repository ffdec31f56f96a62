/// Compiles a `REGEX` constraint value with the semantics of Unleash's reference engines (Rust `regex`, as in
/// yggdrasil, and RE2), using our own linear-time matcher (`Engine/Regex`): a pattern from the server and an input
/// from the evaluation context can never stall evaluation the way a backtracking engine can (`(a+)+$`).
///
/// - Syntax: literals and escapes (`\t \n \r \f \v \a`, `\x7F`, `\x{…}`, `\u0041`, `\u{…}`, `\U0001F600`, `\0`,
///   escaped punctuation, `\Q…\E`); `.`; classes with ranges, negation, `[:posix:]` classes (ASCII, as in RE2),
///   nested classes and `&&`, `--`, `~~`; `\d \w \s \D \W \S` and `\b \B` with their Unicode meaning (as in Rust
///   `regex`); `\pL`, `\p{Lu}`, `\P{…}` for general categories; anchors `^ $ \A \z`; groups `( )`, `(?: )`,
///   `(?P<n> )`, `(?<n> )`; alternation; `* + ? {n} {n,} {n,m}` greedy or lazy (counts up to 1000); flags
///   `(?imsxU)`, `(?-i)`, scoped `(?i: … )`.
/// - `.` excludes only `\n` unless `(?s)`; `$` matches only at the very end unless `(?m)`.
/// - `(?i)` uses simple case folding: `(?i)k` matches the Kelvin sign, `(?i)straße` does not match `STRASSE`.
/// - Rejected (the constraint then never matches): backreferences (`\1`, `\k<name>`, `(?P=name)`), look-around
///   (`(?=`, `(?!`, `(?<=`, `(?<!`), atomic groups (`(?>`), `\Z`, stacked repetition (`a**`), script properties
///   (`\p{Greek}`), patterns whose compiled program would exceed ``RegexCompiler/maxInstructions``, and classes too
///   complex to test (``RegexCompiler/maxMembershipCost``: case-insensitive classes nested deep with Unicode classes).
/// - Matching runs on Unicode scalars and answers whether the pattern matches anywhere (unanchored search).
package enum RegexPattern {
    /// Why a pattern was refused.
    package struct Rejection: Error, Sendable, CustomStringConvertible {
        package let description: String
    }

    /// Compiles `pattern`, case-insensitively when asked.
    /// - Throws: ``Rejection`` when the pattern is invalid, uses syntax RE2 lacks, or is too large.
    package static func compile(_ pattern: String, caseInsensitive: Bool) throws(Rejection) -> RegexProgram {
        let node = try RegexParser.parse(pattern, caseInsensitive: caseInsensitive)
        return try RegexCompiler.compile(node, pattern: pattern)
    }
}
