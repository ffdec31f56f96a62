import Foundation
import Testing

@testable import FlagstaffUnleash

/// Our linear-time matcher for `REGEX` constraints: every construct, flag and rejection. Expectations follow Rust
/// `regex` (yggdrasil-engine 2.0.0's answers) and RE2.
@Suite struct RegexEngineTests {
    /// Whether `pattern` matches `input`; `nil` when the pattern is rejected.
    private func match(_ pattern: String, _ input: String, caseInsensitive: Bool = false) -> Bool? {
        guard let program = try? RegexPattern.compile(pattern, caseInsensitive: caseInsensitive) else { return nil }
        return program.matches(input)
    }

    private func check(_ cases: [(String, String, Bool)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (pattern, input, expected) in cases {
            #expect(
                match(pattern, input) == expected, "\(pattern.debugDescription) on \(input.debugDescription)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func literalsAndEscapes() {
        check([
            ("abc", "xxabcxx", true), ("abc", "ab", false), ("", "", true), ("", "x", true),
            ("a\\.b", "a.b", true), ("a\\.b", "axb", false), ("\\t\\n\\r\\f\\v\\a", "\t\n\r\u{0C}\u{0B}\u{07}", true),
            ("\\x41\\x{42}\\x{1F600}", "AB😀", true), ("\\u0041\\u{42}\\U0001F600", "AB😀", true), ("\\0", "\0", true),
            ("\\Qa.b*\\E+", "a.b**", true), ("\\Qa.b\\E", "axb", false), ("é+", "éé", true), ("😀", "a😀b", true),
            ("\\*\\+\\?\\(\\)\\[\\]\\{\\}\\|\\^\\$\\\\\\-\\#\\&\\~", "*+?()[]{}|^$\\-#&~", true),
            ("a{,3}", "a{,3}", true), ("a{", "a{", true), ("a{x}", "a{x}", true),
        ])
    }

    @Test func dotAndClasses() {
        check([
            ("^a.b$", "a\rb", true), ("^a.b$", "a\nb", false), ("(?s)^a.b$", "a\nb", true), ("^(?s:.)$", "\n", true),
            ("^.$", "😀", true), ("^[a-c]+$", "abcba", true), ("^[a-c]+$", "abd", false), ("^[^a-c]+$", "xyz", true),
            ("^[^a-c]$", "b", false), ("^[^a]$", "\n", true), ("^[]a]+$", "]a]", true), ("^[^]a]$", "b", true),
            ("^[a-]+$", "a-", true), ("^[-a]+$", "-a", true), ("^[\\d_]+$", "1_2", true), ("^[\\w-]+$", "a-b", true),
            ("^[[:alpha:]]+$", "abcXYZ", true), ("^[[:alpha:]]$", "é", false), ("^[[:^alpha:]]$", "1", true),
            ("^[[:digit:][:upper:]]+$", "A1B2", true), ("^[[:xdigit:]]+$", "0fF", true), ("^[[:punct:]]$", "!", true),
            ("^[a[bc]]+$", "abc", true), ("^[a-z&&[^b]]$", "b", false), ("^[a-z&&[^b]]$", "c", true),
            ("^[a-z--b]$", "b", false), ("^[a-c~~b-d]$", "a", true), ("^[a-c~~b-d]$", "b", false),
            ("^[\\x41-\\x43]+$", "ABC", true), ("^[é-ë]$", "ê", true), ("^[\\n]$", "\n", true),
        ])
    }

    @Test func perlAndUnicodeClasses() {
        // \d \w \s have their Unicode meaning, as in Rust `regex` (yggdrasil): Arabic-Indic digits are digits.
        check([
            ("^\\d+$", "0123", true), ("^\\d$", "٣", true), ("^\\D$", "a", true), ("^\\D$", "5", false),
            ("^\\w+$", "ab_9é", true), ("^\\w$", "-", false), ("^\\W$", "-", true),
            ("^\\s+$", " \t\n\r\u{0B}\u{0C}", true),
            ("^\\s$", "\u{A0}", true), ("^\\S$", " ", false), ("^\\pL+$", "aé", true), ("^\\p{Lu}$", "É", true),
            ("^\\p{Lu}$", "é", false), ("^\\PL$", "1", true), ("^\\p{^L}$", "a", false), ("^[\\p{Nd}x]+$", "1x٣", true),
            ("^\\p{Any}$", "\n", true),
        ])
    }

    @Test func anchorsAndMultiline() {
        check([
            ("^a$", "a", true), ("^a$", "a\n", false), ("^a$", "\na", false), ("(?m)^a$", "x\na\ny", true),
            ("(?m)^a$", "xa\ny", false), ("(?m)a$", "a\n", true), ("(?m)^$", "a\n\nb", true), ("\\Aa", "ba", false),
            ("a\\z", "a\n", false), ("(?m)\\Aa", "b\na", false), ("(?m)a\\z", "a\nb", false), ("$^", "", true),
            ("a^b", "a^b", false), ("(?m)^b", "a\nb", true), ("(?m:^b)|^c", "a\nb", true), ("x$|^y", "yz", true),
        ])
    }

    @Test func wordBoundaries() {
        check([
            ("\\bfoo\\b", "a foo b", true), ("\\bfoo\\b", "afoob", false), ("\\Bfoo\\B", "afoob", true),
            ("\\bfoo", "foo", true), ("foo\\b", "foo", true), ("a\\b", "aé", false), ("a\\B", "aé", true),
            ("\\b", "", false), ("\\B", "", true), ("^\\b$", "", false), ("\\b-", "a-", true), ("\\b-", " -", false),
        ])
    }

    @Test func groupsAlternationAndRepetition() {
        check([
            ("^(a|b)+$", "abba", true), ("^(?:a|bc)*$", "abca", true), ("^(?P<x>a)(?<y>b)$", "ab", true),
            ("^(a|)$", "", true), ("^(|a)b$", "b", true), ("^a|b$", "ax", true), ("^a|b$", "xa", false),
            ("^()$", "", true),
            ("^a{3}$", "aaa", true), ("^a{3}$", "aa", false), ("^a{2,}$", "aaaaa", true), ("^a{2,3}$", "aaaa", false),
            ("^a{0}b$", "b", true), ("^a{0,0}$", "", true), ("^(ab){2}$", "abab", true), ("^a*?b+?c??$", "aabb", true),
            ("^a{2,3}?$", "aaa", true), ("^(?U)a+$", "aa", true), ("^(a*)*$", "aaa", true), ("^(a*)+b$", "aab", true),
            ("^(a?){3}a{3}$", "aaa", true), ("^x(?:)y$", "xy", true),
            ("^a{1000}$", String(repeating: "a", count: 1000), true),
        ])
    }

    @Test func flagsAndCaseFolding() {
        check([
            ("(?i)abc", "xABCx", true), ("(?i:a)b", "Ab", true), ("(?i:a)b", "AB", false), ("a(?i)b", "aB", true),
            ("a(?i)b", "AB", false), ("(?i)a(?-i)b", "Ab", true), ("(?i)a(?-i)b", "AB", false),
            ("((?i)a)b", "AB", false),
            ("(?i)straße", "STRASSE", false), ("(?i)straße", "STRAßE", true), ("(?i)ß", "ẞ", true),
            ("(?i)k", "\u{212A}", true), ("(?i)\u{212A}", "K", true), ("(?i)s", "ſ", true), ("(?i)σ", "ς", true),
            ("(?i)Σ", "ς", true), ("(?i)é", "É", true), ("(?i)ǅ", "ǆ", true), ("(?i)ǅ", "Ǆ", true),
            ("(?i)i", "İ", false),
            ("(?i)[a-c]+", "ABC", true), ("(?i)[^a]", "A", false), ("(?i)[^a]", "b", true),
            ("(?i)[k]", "\u{212A}", true),
            ("(?i)\\p{Lu}", "a", true), ("(?is)A.B", "a\nb", true), ("(?x) a b # comment", "ab", true),
            ("(?x)[a b]", " ", false), ("(?x)a\\ b", "a b", true), ("(?im-s:^a.$)", "x\nA\n", false),
        ])
        #expect(match("abc", "ABC", caseInsensitive: true) == true)
        #expect(match("(?-i)abc", "ABC", caseInsensitive: true) == false)
    }

    @Test func rejectionsSayWhy() {
        let rejected = [
            "(?=a)", "(?!a)", "(?<=a)b", "(?<!a)b", "(a)\\1", "\\k<x>", "(?P=x)", "(?>a)", "a\\Z", "(open", "close)",
            "[a",
            "a**", "a*+", "a{2}{3}", "*a", "(?i)*", "a|*", "a{1001}", "a{2,1}", "(?P<1x>a)", "(?P<n>a)(?P<n>b)",
            "(?#c)",
            "(?q)", "(?)", "(?i-)", "\\", "\\q", "\\xZZ", "\\x{110000}", "\\u{D800}", "[z-a]", "[\\d-z]", "[[:bogus:]]",
            "\\p{Greek}", "\\p{Bogus}", "(?-u)a", "\\C", "\\e",
        ]
        for pattern in rejected {
            #expect(throws: RegexPattern.Rejection.self, "\(pattern.debugDescription)") {
                _ = try RegexPattern.compile(pattern, caseInsensitive: false)
            }
        }
        #expect(throws: Never.self) { _ = try RegexPattern.compile("(?<name>a)[(?=]", caseInsensitive: false) }
    }

    @Test func programSizeIsBounded() throws {
        for pattern in ["a{1000}{1000}", "(a{1000}){1000}", "((a{100}){100}){100}", "(?:(?:\\w{1000}){1000})+"] {
            do {
                _ = try RegexPattern.compile(pattern, caseInsensitive: false)
                Issue.record("\(pattern) compiled")
            } catch {
                #expect(
                    error.description.contains("bad repetition") || error.description.contains("too large"), "\(error)")
            }
        }
        #expect(throws: Never.self) { _ = try RegexPattern.compile("(a{100}){100}", caseInsensitive: false) }
    }

    @Test func deepNestingIsRejectedNotCrashed() {
        let deep = String(repeating: "(", count: 5000) + "a" + String(repeating: ")", count: 5000)
        #expect(throws: RegexPattern.Rejection.self) { _ = try RegexPattern.compile(deep, caseInsensitive: false) }
        let classes = String(repeating: "[", count: 5000) + "a" + String(repeating: "]", count: 5000)
        #expect(throws: RegexPattern.Rejection.self) { _ = try RegexPattern.compile(classes, caseInsensitive: false) }
        #expect(match(String(repeating: "(", count: 50) + "a" + String(repeating: ")", count: 50), "a") == true)
        let operators = "[a" + String(repeating: "&&a", count: 5000) + "]"
        #expect(throws: RegexPattern.Rejection.self) { _ = try RegexPattern.compile(operators, caseInsensitive: false) }
        // Many alternatives and long concatenations are not nesting: they compile without deep recursion.
        let branches = (0..<5_000).map { "w\($0)" }.joined(separator: "|")
        #expect(match(branches, "xw4999y") == true)
        #expect(match(branches, "xw5000y") == true)
        #expect(match(branches, "xwy") == false)
        #expect(match(String(repeating: "ab", count: 2_000), String(repeating: "ab", count: 2_000)) == true)
    }

    /// Exponential for a backtracking engine, linear here. The precise figures are in `flagstaff-bench unleash`.
    @Test func pathologicalPatternsRunInLinearTime() throws {
        let run = String(repeating: "a", count: 10_000)
        let cases: [(String, String, Bool)] = [
            ("(a+)+$", run + "!", false), ("(a|a)*b", run, false), ("(a*)*b", run, false), ("(.*a){20}", run, true),
            ("(.*a){20}b", run, false), ("(x+x+)+y", String(repeating: "x", count: 10_000), false),
            ("^(\\w+\\s?)*$", String(repeating: "word ", count: 2_000) + "!", false),
        ]
        for (pattern, input, expected) in cases {
            let program = try RegexPattern.compile(pattern, caseInsensitive: false)
            let start = ContinuousClock.now
            #expect(program.matches(input) == expected, "\(pattern)")
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < .seconds(2), "\(pattern) took \(elapsed)")
            print("RegexEngineTests: \(pattern) on \(input.unicodeScalars.count) scalars: \(elapsed)")
        }
    }
}
