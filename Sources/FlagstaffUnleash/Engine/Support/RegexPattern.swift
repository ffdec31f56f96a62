/// Compiles a `REGEX` constraint value with the semantics Unleash's servers validate against (RE2 / Rust
/// `regex` syntax), on top of Swift's `Regex`.
///
/// The two dialects mostly agree; where they differ this type bridges the gap:
/// - backreferences (`\1`, `\k<name>`), look-around (`(?=`, `(?!`, `(?<=`, `(?<!`) and atomic groups (`(?>`) do not
///   exist in RE2, so a pattern using them is rejected (the constraint then never matches);
/// - POSIX classes (`[[:alpha:]]`) are ASCII-only in RE2 and are rewritten to ASCII ranges;
/// - `\b` uses simple word boundaries and matching runs on Unicode scalars, as in RE2;
/// - `.` excludes only `\n` (Swift also excludes `\r` and other line breaks), unless the `s` flag is set;
/// - `\Z` does not exist in RE2 and is rejected.
enum RegexPattern {
    /// Why a pattern was refused.
    struct Rejection: Error, Sendable, CustomStringConvertible {
        let description: String
    }

    private static let posixClasses: [String: String] = [
        "alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7F", "blank": "\\t ",
        "cntrl": "\\x00-\\x1F\\x7F", "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~",
        "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\x0B\\x0C\\r ", "upper": "A-Z", "word": "0-9A-Za-z_",
        "xdigit": "0-9A-Fa-f",
    ]

    /// Compiles `pattern`, case-insensitively when asked.
    /// - Throws: ``Rejection`` when the pattern uses syntax RE2 lacks or Swift cannot parse it.
    static func compile(_ pattern: String, caseInsensitive: Bool) throws(Rejection) -> Regex<AnyRegexOutput> {
        let translated = try translate(pattern)
        do {
            var regex = try Regex(translated).wordBoundaryKind(.simple).matchingSemantics(.unicodeScalar)
            if caseInsensitive { regex = regex.ignoresCase() }
            return regex
        } catch {
            throw Rejection(description: "invalid regular expression \(pattern.debugDescription): \(error)")
        }
    }

    /// Checks RE2 compatibility and rewrites POSIX classes; see the type's discussion.
    static func translate(_ pattern: String) throws(Rejection) -> String {
        let chars = Array(pattern.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        var classDepth = 0
        var classStart = -1
        let dotMatchesAll = hasDotAllFlag(chars)
        func reject(_ what: String) -> Rejection {
            Rejection(description: "\(what) is not supported in Unleash (RE2) regular expressions: \(pattern.debugDescription)")
        }
        while index < chars.count {
            let char = chars[index]
            if char == "\\" {
                guard index + 1 < chars.count else { throw Rejection(description: "trailing backslash in \(pattern.debugDescription)") }
                let next = chars[index + 1]
                if classDepth == 0 {
                    if ("1"..."9").contains(next) { throw reject("a backreference") }
                    if next == "k" || next == "g" { throw reject("a backreference") }
                    if next == "Z" { throw reject("\\Z") }
                }
                output.append(char)
                output.append(next)
                index += 2
                continue
            }
            if classDepth > 0 {
                if char == "[" && index + 1 < chars.count && chars[index + 1] == ":" {
                    if let end = findPosixEnd(chars, from: index + 2) {
                        let name = String(String.UnicodeScalarView(chars[(index + 2)..<end]))
                        if let ascii = posixClasses[name] {
                            output.append(contentsOf: ascii.unicodeScalars)
                            index = end + 2
                            continue
                        }
                    }
                }
                if char == "[" {
                    classDepth += 1
                    classStart = index
                } else if char == "]" {
                    let isLeadingLiteral =
                        index == classStart + 1 || (index == classStart + 2 && chars[classStart + 1] == "^")
                    if !isLeadingLiteral { classDepth -= 1 }
                }
                output.append(char)
                index += 1
                continue
            }
            if char == "." && !dotMatchesAll {
                output.append(contentsOf: "[^\\n]".unicodeScalars)
                index += 1
                continue
            }
            if char == "[" {
                classDepth = 1
                classStart = index
            } else if char == "(" && index + 2 < chars.count && chars[index + 1] == "?" {
                let third = chars[index + 2]
                if third == "=" || third == "!" { throw reject("look-ahead") }
                if third == ">" { throw reject("an atomic group") }
                if third == "<" && index + 3 < chars.count && (chars[index + 3] == "=" || chars[index + 3] == "!") {
                    throw reject("look-behind")
                }
            }
            output.append(char)
            index += 1
        }
        return String(output)
    }

    /// Whether an inline flag group (`(?s)`, `(?is:…)`) turns on `s` anywhere in the pattern.
    private static func hasDotAllFlag(_ chars: [Unicode.Scalar]) -> Bool {
        var index = 0
        while index + 1 < chars.count {
            if chars[index] == "\\" {
                index += 2
                continue
            }
            if chars[index] == "(" && chars[index + 1] == "?" {
                var cursor = index + 2
                var negated = false
                while cursor < chars.count, chars[cursor] != ")" && chars[cursor] != ":" {
                    let flag = chars[cursor]
                    if flag == "-" {
                        negated = true
                    } else if flag == "s" && !negated {
                        return true
                    } else if !(("a"..."z").contains(flag) || ("A"..."Z").contains(flag)) {
                        break
                    }
                    cursor += 1
                }
            }
            index += 1
        }
        return false
    }

    private static func findPosixEnd(_ chars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index + 1 < chars.count {
            if chars[index] == ":" && chars[index + 1] == "]" { return index }
            guard ("a"..."z").contains(chars[index]) else { return nil }
            index += 1
        }
        return nil
    }
}
