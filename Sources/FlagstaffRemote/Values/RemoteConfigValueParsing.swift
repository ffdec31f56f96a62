import Foundation

/// The lenient scalar parsing rules of `NSString.doubleValue` / `boolValue`, which the Firebase Apple SDK
/// applies to config values. Pure functions over Unicode scalars.
enum RemoteConfigValueParsing {
    private static func isSkippableWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\n" || scalar == "\r"
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }

    /// The longest leading decimal number after whitespace, or 0.
    static func leadingDouble(in text: String) -> Double {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count, isSkippableWhitespace(scalars[index]) { index += 1 }
        let start = index
        if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
        var mantissaDigits = 0
        while index < scalars.count, isDigit(scalars[index]) {
            index += 1
            mantissaDigits += 1
        }
        if index < scalars.count, scalars[index] == "." {
            var fractionEnd = index + 1
            var fractionDigits = 0
            while fractionEnd < scalars.count, isDigit(scalars[fractionEnd]) {
                fractionEnd += 1
                fractionDigits += 1
            }
            if mantissaDigits + fractionDigits > 0 {
                index = fractionEnd
                mantissaDigits += fractionDigits
            }
        }
        guard mantissaDigits > 0 else { return 0 }
        // An exponent counts only if at least one digit follows the optional sign.
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            var exponentEnd = index + 1
            if exponentEnd < scalars.count, scalars[exponentEnd] == "+" || scalars[exponentEnd] == "-" {
                exponentEnd += 1
            }
            var exponentDigits = 0
            while exponentEnd < scalars.count, isDigit(scalars[exponentEnd]) {
                exponentEnd += 1
                exponentDigits += 1
            }
            if exponentDigits > 0 { index = exponentEnd }
        }
        var literal = String(String.UnicodeScalarView(scalars[start..<index]))
        if literal.hasPrefix("+") { literal.removeFirst() }
        if literal.hasSuffix(".") { literal.removeLast() }
        if literal.hasPrefix(".") { literal = "0" + literal }
        if literal.hasPrefix("-.") { literal = "-0" + literal.dropFirst() }
        if let dotE = literal.range(of: ".e") ?? literal.range(of: ".E") {
            literal.replaceSubrange(dotE, with: "e")
        }
        return Double(literal) ?? 0
    }

    /// `NSString.boolValue`: whitespace, then t/T/y/Y, or optional sign + zeros + a digit 1–9.
    static func leadingBool(in text: String) -> Bool {
        var scalars = text.unicodeScalars.makeIterator()
        var next = scalars.next()
        while let scalar = next, isSkippableWhitespace(scalar) { next = scalars.next() }
        guard let first = next else { return false }
        if first == "t" || first == "T" || first == "y" || first == "Y" { return true }
        if first == "+" || first == "-" { next = scalars.next() }
        while next == "0" { next = scalars.next() }
        guard let digit = next else { return false }
        return digit >= "1" && digit <= "9"
    }
}
