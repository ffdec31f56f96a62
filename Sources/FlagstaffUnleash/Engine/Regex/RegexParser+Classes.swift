extension RegexParser {
    static let posixClasses: [String: [ClosedRange<UInt32>]] = [
        "alnum": [0x30...0x39, 0x41...0x5A, 0x61...0x7A], "alpha": [0x41...0x5A, 0x61...0x7A], "ascii": [0x00...0x7F],
        "blank": [0x09...0x09, 0x20...0x20], "cntrl": [0x00...0x1F, 0x7F...0x7F], "digit": [0x30...0x39],
        "graph": [0x21...0x7E], "lower": [0x61...0x7A], "print": [0x20...0x7E],
        "punct": [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E], "space": [0x09...0x0D, 0x20...0x20],
        "upper": [0x41...0x5A], "word": [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A],
        "xdigit": [0x30...0x39, 0x41...0x46, 0x61...0x66],
    ]

    private static let categories: [String: [Unicode.GeneralCategory]] = [
        "Lu": [.uppercaseLetter], "Ll": [.lowercaseLetter], "Lt": [.titlecaseLetter], "Lm": [.modifierLetter],
        "Lo": [.otherLetter], "Mn": [.nonspacingMark], "Mc": [.spacingMark], "Me": [.enclosingMark],
        "Nd": [.decimalNumber], "Nl": [.letterNumber], "No": [.otherNumber], "Pc": [.connectorPunctuation],
        "Pd": [.dashPunctuation], "Ps": [.openPunctuation], "Pe": [.closePunctuation], "Pi": [.initialPunctuation],
        "Pf": [.finalPunctuation], "Po": [.otherPunctuation], "Sm": [.mathSymbol], "Sc": [.currencySymbol],
        "Sk": [.modifierSymbol], "So": [.otherSymbol], "Zs": [.spaceSeparator], "Zl": [.lineSeparator],
        "Zp": [.paragraphSeparator], "Cc": [.control], "Cf": [.format], "Cs": [.surrogate], "Co": [.privateUse],
        "Cn": [.unassigned],
    ]

    /// An escape outside a class, at `\`.
    mutating func parseEscape() throws(RegexPattern.Rejection) -> RegexNode {
        guard let letter = peek(1) else { throw invalid("trailing backslash") }
        switch letter {
        case 0x41:
            index += 2
            return .assertion(.beginText)  // A
        case 0x7A:
            index += 2
            return .assertion(.endText)  // z
        case 0x62:
            index += 2
            return .assertion(.wordBoundary)  // b
        case 0x42:
            index += 2
            return .assertion(.notWordBoundary)  // B
        case 0x5A: throw unsupported("\\Z")
        case 0x31...0x39, 0x6B, 0x67: throw unsupported("a backreference")  // 1-9 k g
        default: break
        }
        if let set = try parseClassEscape() { return .set(set) }
        return .scalar(try parseCharEscape(), caseInsensitive: flags.caseInsensitive)
    }

    /// `\d \D \w \W \s \S \pX \p{X} \PX \P{X}` at `\`, or `nil` (nothing consumed).
    private mutating func parseClassEscape() throws(RegexPattern.Rejection) -> ScalarClass? {
        guard let letter = peek(1), let scalar = Unicode.Scalar(letter) else { return nil }
        let property: UnicodeClass
        switch scalar {
        case "d", "D": property = .digit
        case "w", "W": property = .word
        case "s", "S": property = .space
        case "p", "P": return try parseProperty(negated: scalar == "P")
        default: return nil
        }
        index += 2
        let positive: ScalarClass = .property(property)
        return scalar.properties.isUppercase ? .negated(positive) : positive
    }

    /// `\pX`, `\p{X}`, `\p{^X}`, `\PX` at `\`: general categories (one or two letters) and `Any`.
    mutating func parseProperty(negated: Bool) throws(RegexPattern.Rejection) -> ScalarClass {
        index += 2
        var name = ""
        var negate = negated
        if peek() == 0x7B {  // {
            index += 1
            if peek() == 0x5E {
                negate.toggle()
                index += 1
            }
            while let char = peek(), char != 0x7D, let scalar = Unicode.Scalar(char) {
                name.unicodeScalars.append(scalar)
                index += 1
                if name.count > 40 { break }
            }
            guard peek() == 0x7D else { throw invalid("missing } in \\p{…}") }
            index += 1
        } else if let char = peek(), let scalar = Unicode.Scalar(char) {
            name.unicodeScalars.append(scalar)
            index += 1
        }
        var scalarClass: ScalarClass
        if name == "Any" {
            scalarClass = .ranges([0...ScalarClass.maxScalar])
        } else if let categories = Self.categories[name] {
            scalarClass = .property(.category(categories))
        } else if name.count == 1, let first = name.first {
            let all = Self.categories.filter { $0.key.first == first }.flatMap(\.value)
            guard !all.isEmpty else { throw unsupported("the Unicode property \(name.debugDescription)") }
            scalarClass = .property(.category(all))
        } else {
            throw unsupported("the Unicode property \(name.debugDescription)")
        }
        if flags.caseInsensitive { scalarClass = .caseFolded(scalarClass) }
        return negate ? .negated(scalarClass) : scalarClass
    }

    /// A single-scalar escape at `\`: control escapes, `\x`, `\u`, `\U`, octal `\0`, escaped punctuation.
    mutating func parseCharEscape() throws(RegexPattern.Rejection) -> UInt32 {
        guard let letter = peek(1) else { throw invalid("trailing backslash") }
        index += 2
        switch letter {
        case 0x61: return 0x07  // a
        case 0x66: return 0x0C  // f
        case 0x74: return 0x09  // t
        case 0x6E: return 0x0A  // n
        case 0x72: return 0x0D  // r
        case 0x76: return 0x0B  // v
        case 0x78: return try parseHex(fixed: 2)  // x
        case 0x75: return try parseHex(fixed: 4)  // u
        case 0x55: return try parseHex(fixed: 8)  // U
        case 0x30:  // 0: up to two more octal digits
            var value: UInt32 = 0
            for _ in 0..<2 {
                guard let digit = peek(), digit >= 0x30 && digit <= 0x37 else { break }
                value = value * 8 + digit - 0x30
                index += 1
            }
            return value
        default:
            if letter < 0x80, let scalar = Unicode.Scalar(letter), !scalar.properties.isAlphabetic,
                !(letter >= 0x30 && letter <= 0x39), letter >= 0x20, letter != 0x7F
            {
                return letter
            }
            let shown = Unicode.Scalar(letter).map { String($0) } ?? "?"
            throw invalid("invalid escape sequence \\\(shown)")
        }
    }

    /// `{hex…}` or exactly `fixed` hex digits, after `\x`, `\u` or `\U`.
    private mutating func parseHex(fixed: Int) throws(RegexPattern.Rejection) -> UInt32 {
        var value: UInt32 = 0
        var digits = 0
        let braced = peek() == 0x7B
        if braced { index += 1 }
        while let char = peek(),
            let digit = Unicode.Scalar(char).flatMap({ $0.isASCII ? Int(String($0), radix: 16) : nil }),
            braced || digits < fixed
        {
            value = min(value * 16 + UInt32(digit), 0x11_0000)
            digits += 1
            index += 1
        }
        if braced {
            guard peek() == 0x7D, digits > 0 else { throw invalid("invalid hexadecimal escape") }
            index += 1
        } else if digits != fixed {
            throw invalid("invalid hexadecimal escape")
        }
        guard Unicode.Scalar(value) != nil else { throw invalid("invalid Unicode scalar value in an escape") }
        return value
    }
}
