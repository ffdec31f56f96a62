extension RegexParser {
    private enum SetOperator { case intersection, difference, symmetricDifference }

    /// A bracketed class at `[`: items, ranges, `[:posix:]`, nested classes (a union, as in Rust `regex`) and the
    /// set operators `&&`, `--`, `~~` (left to right). Case folding applies before negation, as in RE2.
    mutating func parseClass() throws(RegexPattern.Rejection) -> ScalarClass {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxNesting else { throw invalid("nesting deeper than \(Self.maxNesting)") }
        index += 1
        var negated = false
        if peek() == 0x5E {
            negated = true
            index += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var parts: [ScalarClass] = []
        var combined: ScalarClass?
        var pending: SetOperator?
        var first = true
        var operators = 0
        func union() -> ScalarClass {
            parts.isEmpty
                ? .ranges(ScalarClass.normalized(ranges)) : .union([.ranges(ScalarClass.normalized(ranges))] + parts)
        }
        func fold() {
            let right = union()
            ranges = []
            parts = []
            guard let left = combined, let operation = pending else {
                combined = right
                return
            }
            switch operation {
            case .intersection: combined = .intersection(left, right)
            case .difference: combined = .difference(left, right)
            case .symmetricDifference: combined = .symmetricDifference(left, right)
            }
        }
        while true {
            guard let char = peek() else { throw invalid("missing ]") }
            if flags.verbose, let scalar = Unicode.Scalar(char), scalar.properties.isWhitespace {
                index += 1
                continue
            }
            if char == 0x5D && !first {  // ]
                index += 1
                break
            }
            first = false
            if char == 0x5B {  // [
                if let posix = try parsePosixClass() {
                    parts.append(posix)
                } else {
                    parts.append(try parseClass())
                }
                continue
            }
            if let next = peek(1), next == char, char == 0x26 || char == 0x2D || char == 0x7E {  // && -- ~~
                operators += 1
                guard operators <= Self.maxNesting else {
                    throw invalid("more than \(Self.maxNesting) class set operators")
                }
                fold()
                pending = char == 0x26 ? .intersection : char == 0x2D ? .difference : .symmetricDifference
                index += 2
                continue
            }
            let low: UInt32
            if char == 0x5C {
                if let escaped = try parseClassEscapeInClass() {
                    parts.append(escaped)
                    if peek() == 0x2D, let after = peek(1), after != 0x5D { throw invalid("bad character class range") }
                    continue
                }
                low = try parseCharEscape()
            } else {
                low = char
                index += 1
            }
            guard peek() == 0x2D, let after = peek(1), after != 0x5D, after != 0x2D else {
                ranges.append(low...low)
                continue
            }
            index += 1
            let high: UInt32
            if after == 0x5C {
                if peek(1).map({ [0x64, 0x44, 0x77, 0x57, 0x73, 0x53, 0x70, 0x50].contains($0) }) ?? false {
                    throw invalid("bad character class range")
                }
                high = try parseCharEscape()
            } else {
                high = after
                index += 1
            }
            guard low <= high else { throw invalid("bad character class range (reversed)") }
            ranges.append(low...high)
        }
        fold()
        var result = combined ?? .ranges([])
        if flags.caseInsensitive { result = .caseFolded(result) }
        if let flat = result.flattened { result = .ranges(flat) }
        return negated ? .negated(result) : result
    }

    private mutating func parseClassEscapeInClass() throws(RegexPattern.Rejection) -> ScalarClass? {
        guard let letter = peek(1) else { throw invalid("trailing backslash") }
        if letter >= 0x31 && letter <= 0x39 { throw invalid("invalid escape sequence in a class") }
        switch letter {
        case 0x64, 0x44, 0x77, 0x57, 0x73, 0x53:  // d D w W s S
            let negated = letter == 0x44 || letter == 0x57 || letter == 0x53
            let property: UnicodeClass =
                letter == 0x64 || letter == 0x44 ? .digit : letter == 0x77 || letter == 0x57 ? .word : .space
            index += 2
            return negated ? .negated(.property(property)) : .property(property)
        case 0x70, 0x50:  // p P
            let saved = flags.caseInsensitive
            flags.caseInsensitive = false  // the whole class is folded once
            defer { flags.caseInsensitive = saved }
            return try parseProperty(negated: letter == 0x50)
        default: return nil
        }
    }

    /// `[:name:]` or `[:^name:]` at `[`; `nil` (nothing consumed) when the text is not one, so `[` opens a nested
    /// class. Names are ASCII, as in RE2.
    private mutating func parsePosixClass() throws(RegexPattern.Rejection) -> ScalarClass? {
        guard peek(1) == 0x3A else { return nil }
        var cursor = index + 2
        var negated = false
        if cursor < scalars.count && scalars[cursor] == 0x5E {
            negated = true
            cursor += 1
        }
        var name = String.UnicodeScalarView()
        while cursor < scalars.count, let scalar = Unicode.Scalar(scalars[cursor]), ("a"..."z").contains(scalar) {
            name.append(scalar)
            cursor += 1
        }
        guard cursor + 1 < scalars.count, scalars[cursor] == 0x3A, scalars[cursor + 1] == 0x5D else { return nil }
        guard let ranges = Self.posixClasses[String(name)] else {
            throw invalid("invalid character class range [:\(String(name)):]")
        }
        index = cursor + 2
        return negated ? .ranges(ScalarClass.complement(ranges)) : .ranges(ranges)
    }
}
