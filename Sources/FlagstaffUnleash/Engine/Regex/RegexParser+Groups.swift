extension RegexParser {
    /// A group at `(`: capturing, non-capturing, named, or flags (`(?i)`, `(?i-s:…)`). Returns `nil` for a flag
    /// group without a body, whose flags apply to the rest of the enclosing group.
    mutating func parseGroup() throws(RegexPattern.Rejection) -> RegexNode? {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxNesting else { throw invalid("nesting deeper than \(Self.maxNesting)") }
        index += 1
        let saved = flags
        if peek() == 0x3F {  // ?
            index += 1
            switch peek() {
            case 0x3D, 0x21: throw unsupported("look-ahead")  // = !
            case 0x3E: throw unsupported("an atomic group")  // >
            case 0x23: throw unsupported("a comment group")  // #
            case 0x50:  // P
                switch peek(1) {
                case 0x3C:
                    index += 2
                    try parseGroupName()
                case 0x3D: throw unsupported("a backreference")
                default: throw unsupported("a recursion or unknown (?P group")
                }
            case 0x3C:  // <
                if peek(1) == 0x3D || peek(1) == 0x21 { throw unsupported("look-behind") }
                index += 1
                try parseGroupName()
            default:
                if try parseFlags() { return nil }
            }
        }
        let body = try parseAlternation()
        guard peek() == 0x29 else { throw invalid("missing )") }
        index += 1
        flags = saved
        return body
    }

    /// Reads `name>` and records it; names must be unique, start with a letter or `_` and hold word characters.
    private mutating func parseGroupName() throws(RegexPattern.Rejection) {
        var name = String.UnicodeScalarView()
        while let char = peek(), char != 0x3E {
            guard let scalar = Unicode.Scalar(char), scalar.isASCII,
                scalar.properties.isAlphabetic || scalar == "_"
                    || (scalar.properties.numericType != nil && !name.isEmpty)
            else { throw invalid("invalid capture group name") }
            name.append(scalar)
            index += 1
        }
        guard peek() == 0x3E, !name.isEmpty else { throw invalid("invalid capture group name") }
        index += 1
        let text = String(name)
        guard names.insert(text).inserted else { throw invalid("duplicate capture group name \(text)") }
    }

    /// Reads flags after `(?` up to `)` (returns `true`: they apply from here on) or `:` (returns `false`: they
    /// apply to the group's body, which the caller parses).
    private mutating func parseFlags() throws(RegexPattern.Rejection) -> Bool {
        var negated = false
        var sawFlag = false
        while let char = peek() {
            index += 1
            switch char {
            case 0x69: flags.caseInsensitive = !negated  // i
            case 0x6D: flags.multiLine = !negated  // m
            case 0x73: flags.dotAll = !negated  // s
            case 0x78: flags.verbose = !negated  // x
            case 0x55: break  // U: swaps greediness, which never changes whether a match exists
            case 0x75:  // u: Unicode, on by default
                if negated { throw unsupported("(?-u)") }
            case 0x2D:  // -
                if negated { throw invalid("invalid flag group") }
                negated = true
                sawFlag = false
                continue
            case 0x29, 0x3A:  // ) :
                guard sawFlag || (!negated && char == 0x3A) else { throw invalid("invalid flag group") }
                return char == 0x29
            default:
                throw invalid("unknown flag in a (?…) group")
            }
            sawFlag = true
        }
        throw invalid("missing )")
    }
}
