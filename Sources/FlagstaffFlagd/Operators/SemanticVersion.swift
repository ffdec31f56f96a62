import Flagstaff

/// flagd's `sem_ver`: `[version, operator, version]` with `=`, `!=`, `<`, `<=`, `>`, `>=`, `^` (same major) and `~`
/// (same major and minor).
///
/// A version is Semantic Versioning 2.0.0 text with a leading `v`/`V` allowed and a missing minor or patch read as
/// 0 (`1` is `1.0.0`, `1.2` is `1.2.0`); numbers are read as their text. Build metadata is ignored, a pre-release
/// is lower than its release. Any other operand count, operator or version makes the result `null`.
struct SemanticVersion: Comparable {
    /// Major, minor and patch as digit strings without leading zeros (any length).
    let major: Substring
    let minor: Substring
    let patch: Substring
    /// The pre-release identifiers, empty for a release.
    let prerelease: [Substring]

    static func evaluate(_ operands: [JSONValue]) -> JSONValue {
        guard operands.count == 3, case .string(let operation) = operands[1],
            let left = SemanticVersion(operands[0]), let right = SemanticVersion(operands[2])
        else { return .null }
        return compare(left, operation, right)
    }

    /// `left operation right`, or `null` for an unknown operator.
    static func compare(_ left: SemanticVersion, _ operation: String, _ right: SemanticVersion) -> JSONValue {
        switch operation {
        case "=": return .bool(left == right)
        case "!=": return .bool(left != right)
        case "<": return .bool(left < right)
        case "<=": return .bool(left <= right)
        case ">": return .bool(left > right)
        case ">=": return .bool(left >= right)
        case "^": return .bool(left.major == right.major)
        case "~": return .bool(left.major == right.major && left.minor == right.minor)
        default: return .null
        }
    }

    /// Reads an operand: text, or a number as its text (`1.2`).
    init?(_ operand: JSONValue) {
        switch operand {
        case .string(let text): self.init(text: text)
        case .number(let number): self.init(text: JSONLogicCoercion.nameText(number))
        default: return nil
        }
    }

    init?(text written: String) {
        var text = Substring(written)
        if text.hasPrefix("v") || text.hasPrefix("V") { text = text.dropFirst() }
        // Build metadata, then the pre-release, are split off; the rest is the numeric core.
        var build: Substring?
        if let plus = text.firstIndex(of: "+") {
            build = text[text.index(after: plus)...]
            text = text[..<plus]
        }
        var release: Substring?
        if let dash = text.firstIndex(of: "-") {
            release = text[text.index(after: dash)...]
            text = text[..<dash]
        }
        // Up to three dot-separated numbers, read without an intermediate array (this runs on every evaluation).
        var parts: (Substring, Substring, Substring) = ("0", "0", "0")
        var rest = text
        for index in 0..<3 {
            let dot = rest.firstIndex(of: ".")
            let part = dot.map { rest[..<$0] } ?? rest
            guard Self.isNumber(part) else { return nil }
            switch index {
            case 0: parts.0 = part
            case 1: parts.1 = part
            default: parts.2 = part
            }
            guard let dot else { break }
            if index == 2 { return nil }
            rest = rest[rest.index(after: dot)...]
        }
        var identifiers: [Substring] = []
        if let release {
            identifiers = release.split(separator: ".", omittingEmptySubsequences: false)
            for identifier in identifiers where !Self.isPrereleaseIdentifier(identifier) { return nil }
        }
        // Build metadata: dot-separated non-empty identifiers of letters, digits and hyphens.
        if let build {
            var previous = UInt8(ascii: ".")
            for byte in build.utf8 {
                if byte == UInt8(ascii: ".") {
                    if previous == UInt8(ascii: ".") { return nil }
                } else if !Self.isIdentifierByte(byte) {
                    return nil
                }
                previous = byte
            }
            if previous == UInt8(ascii: ".") { return nil }
        }
        major = parts.0
        minor = parts.1
        patch = parts.2
        prerelease = identifiers
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "-")
    }

    /// `0` or digits without a leading zero.
    private static func isNumber(_ part: Substring) -> Bool {
        guard let first = part.utf8.first, part.utf8.allSatisfy(isDigit) else { return false }
        return first != UInt8(ascii: "0") || part.utf8.count == 1
    }

    /// A number (no leading zero), or letters, digits and hyphens with at least one non-digit.
    private static func isPrereleaseIdentifier(_ identifier: Substring) -> Bool {
        guard !identifier.isEmpty, identifier.utf8.allSatisfy(isIdentifierByte) else { return false }
        return identifier.utf8.allSatisfy(isDigit) ? isNumber(identifier) : true
    }

    /// Digit strings by value: shorter is smaller, then bytewise.
    private static func compareNumbers(_ a: Substring, _ b: Substring) -> Int {
        if a.utf8.count != b.utf8.count { return a.utf8.count < b.utf8.count ? -1 : 1 }
        if a == b { return 0 }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
    }

    private static func compare(_ a: SemanticVersion, _ b: SemanticVersion) -> Int {
        var order = compareNumbers(a.major, b.major)
        if order == 0 { order = compareNumbers(a.minor, b.minor) }
        if order == 0 { order = compareNumbers(a.patch, b.patch) }
        if order != 0 { return order }
        switch (a.prerelease.isEmpty, b.prerelease.isEmpty) {
        case (true, true): return 0
        case (true, false): return 1
        case (false, true): return -1
        case (false, false): break
        }
        for (x, y) in zip(a.prerelease, b.prerelease) {
            let xNumeric = x.utf8.allSatisfy(isDigit)
            let yNumeric = y.utf8.allSatisfy(isDigit)
            switch (xNumeric, yNumeric) {
            case (true, true):
                let order = compareNumbers(x, y)
                if order != 0 { return order }
            case (true, false): return -1
            case (false, true): return 1
            case (false, false):
                if x != y { return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1 }
            }
        }
        if a.prerelease.count == b.prerelease.count { return 0 }
        return a.prerelease.count < b.prerelease.count ? -1 : 1
    }

    static func == (a: SemanticVersion, b: SemanticVersion) -> Bool { compare(a, b) == 0 }
    static func < (a: SemanticVersion, b: SemanticVersion) -> Bool { compare(a, b) < 0 }
}
