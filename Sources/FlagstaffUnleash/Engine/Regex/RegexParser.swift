/// Parses the RE2 / Rust `regex` syntax Unleash patterns use into a ``RegexNode``; see ``RegexPattern``.
///
/// Recursive descent with a nesting limit (groups and classes), so hostile patterns cannot exhaust the stack.
struct RegexParser {
    struct Flags {
        var caseInsensitive = false
        var multiLine = false
        var dotAll = false
        var verbose = false
    }

    static let maxNesting = 100
    /// Largest count in `{n,m}`, as in RE2.
    static let maxRepeat = 1000

    let pattern: String
    let scalars: [UInt32]
    var index = 0
    var flags = Flags()
    var depth = 0
    var names: Set<String> = []

    /// Parses `pattern`; `caseInsensitive` starts as if the pattern began with `(?i)`.
    static func parse(_ pattern: String, caseInsensitive: Bool) throws(RegexPattern.Rejection) -> RegexNode {
        var parser = RegexParser(pattern: pattern, scalars: pattern.unicodeScalars.map(\.value))
        parser.flags.caseInsensitive = caseInsensitive
        let node = try parser.parseAlternation()
        if parser.index < parser.scalars.count { throw parser.invalid("unmatched )") }
        return node
    }

    func peek(_ offset: Int = 0) -> UInt32? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    func invalid(_ what: String) -> RegexPattern.Rejection {
        RegexPattern.Rejection(description: "invalid regular expression \(pattern.debugDescription): \(what)")
    }

    func unsupported(_ what: String) -> RegexPattern.Rejection {
        RegexPattern.Rejection(
            description: "\(what) is not supported in Unleash (RE2) regular expressions: \(pattern.debugDescription)")
    }

    mutating func parseAlternation() throws(RegexPattern.Rejection) -> RegexNode {
        var branches = [try parseConcat()]
        while peek() == 0x7C {  // |
            index += 1
            branches.append(try parseConcat())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseConcat() throws(RegexPattern.Rejection) -> RegexNode {
        var items: [RegexNode] = []
        var canRepeat = false
        while let char = peek(), char != 0x7C, char != 0x29 {  // | )
            if flags.verbose && skipVerboseFiller() { continue }
            if let (min, max, length) = quantifier(at: index) {
                guard canRepeat, let operand = items.popLast() else {
                    throw invalid(
                        canRepeat ? "repeated repetition operator" : "missing argument to repetition operator")
                }
                if min > Self.maxRepeat || (max ?? 0) > Self.maxRepeat || min > (max ?? min) {
                    let text = String(
                        String.UnicodeScalarView(scalars[index..<(index + length)].compactMap(Unicode.Scalar.init)))
                    throw invalid("bad repetition operator \(text) (counts go up to \(Self.maxRepeat))")
                }
                index += length
                if peek() == 0x3F { index += 1 }  // lazy: same matches
                if quantifier(at: index) != nil { throw invalid("bad repetition operator (stacked repetition)") }
                items.append(.repetition(operand, min: min, max: max))
                canRepeat = false
                continue
            }
            if char == 0x5C && peek(1) == 0x51 {  // \Q…\E
                index += 2
                while index < scalars.count && !(scalars[index] == 0x5C && peek(1) == 0x45) {
                    items.append(.scalar(scalars[index], caseInsensitive: flags.caseInsensitive))
                    index += 1
                }
                if index < scalars.count { index += 2 }
                canRepeat = items.last != nil
                continue
            }
            if let atom = try parseAtom() {
                items.append(atom)
                canRepeat = true
            } else {
                canRepeat = false
            }
        }
        if items.isEmpty { return .empty }
        return items.count == 1 ? items[0] : .concat(items)
    }

    /// Skips whitespace and `#` comments in `(?x)` mode; whether anything was skipped.
    private mutating func skipVerboseFiller() -> Bool {
        guard let char = peek() else { return false }
        if char == 0x23 {  // #
            while let next = peek(), next != 0x0A { index += 1 }
            return true
        }
        if let scalar = Unicode.Scalar(char), scalar.properties.isWhitespace {
            index += 1
            return true
        }
        return false
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` at `position`: counts and length; `nil` when none (a `{` that does not
    /// start a valid repetition is a literal).
    private func quantifier(at position: Int) -> (Int, Int?, Int)? {
        guard position < scalars.count else { return nil }
        switch scalars[position] {
        case 0x2A: return (0, nil, 1)
        case 0x2B: return (1, nil, 1)
        case 0x3F: return (0, 1, 1)
        case 0x7B: break
        default: return nil
        }
        var cursor = position + 1
        func number() -> Int? {
            var value = 0
            let start = cursor
            while cursor < scalars.count, scalars[cursor] >= 0x30 && scalars[cursor] <= 0x39 {
                value = min(value * 10 + Int(scalars[cursor] - 0x30), 1_000_000)
                cursor += 1
            }
            return cursor > start ? value : nil
        }
        guard let low = number(), cursor < scalars.count else { return nil }
        var high: Int? = low
        if scalars[cursor] == 0x2C {  // ,
            cursor += 1
            high = number()
        }
        guard cursor < scalars.count, scalars[cursor] == 0x7D else { return nil }
        return (low, high, cursor + 1 - position)
    }

    private mutating func parseAtom() throws(RegexPattern.Rejection) -> RegexNode? {
        guard let char = peek() else { return nil }
        switch char {
        case 0x28: return try parseGroup()
        case 0x5B: return .set(try parseClass())
        case 0x2E:
            index += 1
            return .any(dotAll: flags.dotAll)
        case 0x5E:
            index += 1
            return .assertion(flags.multiLine ? .beginLine : .beginText)
        case 0x24:
            index += 1
            return .assertion(flags.multiLine ? .endLine : .endText)
        case 0x5C: return try parseEscape()
        default:
            index += 1
            return .scalar(char, caseInsensitive: flags.caseInsensitive)
        }
    }
}
