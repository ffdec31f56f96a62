import Testing

@testable import FlagstaffUnleash

/// Patterns the `unleash-regex` fuzz target found (docs/fuzzing.md).
@Suite("Regex fuzz findings")
struct RegexFuzzFindingsTests {
    @Test("nested case-insensitive classes with Unicode classes are refused as too complex, not left to take minutes")
    func nestedCaseFoldedClasses() throws {
        // Each nested class under (?i) tries every scalar's case orbit again: 4^12 class tests per input scalar.
        let pattern = "(?i)" + String(repeating: "[", count: 12) + #"\w"# + String(repeating: "]", count: 12)
        #expect {
            try RegexPattern.compile(pattern, caseInsensitive: false)
        } throws: { error in
            (error as? RegexPattern.Rejection)?.description.contains("too complex") == true
        }
        // A few levels stay well within the limit and match as before.
        let program = try RegexPattern.compile(#"(?i)[[\w&&\p{Lu}]x]"#, caseInsensitive: false)
        #expect(program.matches("é"))
        #expect(program.matches("X"))
        #expect(!program.matches("7"))
    }
}
