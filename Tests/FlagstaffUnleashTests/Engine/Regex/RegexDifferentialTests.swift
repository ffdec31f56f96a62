import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

/// Our matcher against Swift's `Regex` (a backtracking engine, here only as a reference) on seeded random
/// patterns from the supported syntax and random inputs. Patterns nest shallowly and inputs are short, so the
/// reference stays fast. The generator writes each pattern twice where the dialects differ: `.` (Swift's also
/// excludes `\r`) and `[:posix:]` classes. Inputs for patterns with `\b` or `\B` have no digits: Swift's simple
/// word boundaries treat digits as non-word characters, where RE2 and Rust `regex` (and we) count them in `\w`.
@Suite struct RegexDifferentialTests {
    private struct Generator {
        var random: SeededRandom
        var dotAll = false

        mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

        mutating func pattern() -> (ours: String, reference: String) {
            let flags = pick(["", "", "", "(?i)", "(?m)", "(?s)", "(?im)", "(?is)"])
            dotAll = flags.contains("s")
            let body = alternation(depth: 3)
            return (flags + body.ours, flags + body.reference)
        }

        private mutating func alternation(depth: Int) -> (ours: String, reference: String) {
            var ours: [String] = []
            var reference: [String] = []
            for _ in 0..<(chance(75) ? 1 : Int(random.next() % 3) + 2) {
                let branch = concatenation(depth: depth)
                ours.append(branch.ours)
                reference.append(branch.reference)
            }
            return (ours.joined(separator: "|"), reference.joined(separator: "|"))
        }

        private mutating func concatenation(depth: Int) -> (ours: String, reference: String) {
            var ours = ""
            var reference = ""
            for _ in 0..<Int(random.next() % 4) + (chance(90) ? 1 : 0) {
                let (atom, atomReference, repeatable) = self.atom(depth: depth)
                let quantifier = repeatable && chance(35) ? self.quantifier() : ""
                ours += atom + quantifier
                reference += atomReference + quantifier
            }
            return (ours, reference)
        }

        private mutating func atom(depth: Int) -> (String, String, Bool) {
            switch random.next() % 20 {
            case 0...6:
                let literal = pick(["a", "b", "c", "A", "é", "1", " ", "\\.", "-", "_", "\\n", "\\x41", "\\u00e9"])
                return (literal, literal, true)
            case 7: return dotAll ? (".", ".", true) : (".", "[^\\n]", true)
            case 8...10:
                let set = pick(["[abc]", "[^a]", "[a-c]", "[^a-c\\n]", "[\\d.]", "[A-Z]", "[é_-]", "[^\\s]", "[a-cA]"])
                return (set, set, true)
            case 11:
                let posix = pick([
                    ("[[:alpha:]]", "[A-Za-z]"), ("[[:digit:]b]", "[0-9b]"),
                    ("[^[:space:]]", "[^\\t\\n\\x0B\\x0C\\r ]"),
                ])
                return (posix.0, posix.1, true)
            case 12, 13:
                let perl = pick(["\\d", "\\w", "\\s", "\\W", "\\D", "\\S"])
                return (perl, perl, true)
            case 14:
                let anchor = pick(["^", "$", "\\b", "\\B", "\\A", "\\z"])
                return (anchor, anchor, false)
            default:
                guard depth > 0 else { return ("a", "a", true) }
                let open = pick(["(", "(?:", "(?P<g\(random.next() % 1000)>"])
                let inner = alternation(depth: depth - 1)
                let referenceOpen = open.hasPrefix("(?P<") ? "(?<" + open.dropFirst(4) : open
                return (open + inner.ours + ")", referenceOpen + inner.reference + ")", true)
            }
        }

        private mutating func quantifier() -> String {
            let base = pick(["*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}"])
            return base + (chance(25) ? "?" : "")
        }

        mutating func input(digits: Bool) -> String {
            let alphabet: [String] =
                ["a", "b", "c", "A", "B", "C", "é", "É", " ", "\n", ".", "_", "-", "x"]
                + (digits ? ["1", "2"] : [])
            var text = ""
            for _ in 0..<Int(random.next() % 11) { text += pick(alphabet) }
            return text
        }
    }

    @Test func matchesLikeSwiftRegexOnRandomPatterns() throws {
        var generator = Generator(random: SeededRandom(seed: 0x2E6E_C0DE))
        var compared = 0
        var matched = 0
        var differences: [String] = []
        var names = Set<String>()
        let patterns = 3_000
        for _ in 0..<patterns {
            let (ours, reference) = generator.pattern()
            // Duplicate group names are an error in both dialects; regenerate-free: skip them.
            guard !hasDuplicateNames(ours, &names) else { continue }
            let program: RegexProgram
            do {
                program = try RegexPattern.compile(ours, caseInsensitive: false)
            } catch {
                differences.append("rejected \(ours.debugDescription): \(error)")
                continue
            }
            let swiftRegex: Regex<AnyRegexOutput>
            do {
                swiftRegex = try Regex(reference).wordBoundaryKind(.simple).matchingSemantics(.unicodeScalar)
            } catch {
                differences.append("Swift rejected \(reference.debugDescription): \(error)")
                continue
            }
            for _ in 0..<20 {
                let input = generator.input(digits: !ours.contains("\\b") && !ours.contains("\\B"))
                let expected = input.contains(swiftRegex)
                compared += 1
                if expected { matched += 1 }
                if program.matches(input) != expected {
                    differences.append("\(ours.debugDescription) on \(input.debugDescription): Swift says \(expected)")
                }
            }
        }
        #expect(
            differences.isEmpty, "\(differences.count) differences of \(compared), first: \(differences.prefix(15))")
        // Both answers are well represented, so the comparison means something.
        #expect(matched > compared / 5 && matched < compared * 4 / 5, "\(matched) of \(compared) matched")
        print(
            "RegexDifferentialTests: \(patterns) patterns, \(compared) comparisons, \(matched) matches, \(differences.count) differences"
        )
    }

    /// Random text made of regex syntax: every pattern is either compiled or rejected, and matching never traps.
    @Test func arbitraryPatternsNeverTrap() {
        var random = SeededRandom(seed: 0xF022_AB1E)
        let pieces = [
            "(", ")", "[", "]", "{", "}", "?", "*", "+", "|", "^", "$", ".", "\\", "-", ":", "&&", "--", "~~",
            "a", "z", "0", "9", ",", "P", "<", ">", "=", "!", "i", "s", "m", "x", "U", "u", "p", "x{", "é", "\n",
            "[:alpha:]", "[:^x", "Q", "E", "b", "B", "d", "w", "1000", "#", " ", "_",
        ]
        var compiled = 0
        for _ in 0..<20_000 {
            var pattern = ""
            for _ in 0..<Int(random.next() % 16) { pattern += pieces[Int(random.next() % UInt64(pieces.count))] }
            guard let program = try? RegexPattern.compile(pattern, caseInsensitive: random.next() % 2 == 0) else {
                continue
            }
            compiled += 1
            for input in ["", "a", "az09_é\n", "[(a)]{x}", String(repeating: "a9 ", count: 20)] {
                _ = program.matches(input)
            }
        }
        #expect(compiled > 1_000, "\(compiled) compiled")
        print("RegexDifferentialTests: 20000 arbitrary patterns, \(compiled) compiled, none trapped")
    }

    private func hasDuplicateNames(_ pattern: String, _ scratch: inout Set<String>) -> Bool {
        scratch.removeAll()
        for part in pattern.components(separatedBy: "(?P<").dropFirst() {
            let name = String(part.prefix { $0 != ">" })
            if !scratch.insert(name).inserted { return true }
        }
        return false
    }
}
