import Flagstaff

/// flagd's `sem_ver`: `[version, operator, version]` with `=`, `!=`, `<`, `<=`, `>`, `>=`, `^` (same major) and `~`
/// (same major and minor).
///
/// A version is Semantic Versioning 2.0.0 text with a leading `v`/`V` allowed and a missing minor or patch read as
/// 0 (`1` is `1.0.0`, `1.2` is `1.2.0`); numbers are read as their text. Build metadata is ignored, a pre-release
/// is lower than its release. Any other operand count, operator or version makes the result `null`.
struct SemanticVersion: Comparable {
    /// Major, minor and patch as digit strings without leading zeros (any length).
    let core: [Substring]
    /// The pre-release identifiers, empty for a release.
    let prerelease: [Substring]

    static func evaluate(_ operands: [JSONValue]) -> JSONValue {
        guard operands.count == 3, case .string(let operation) = operands[1],
            let left = SemanticVersion(operands[0]), let right = SemanticVersion(operands[2])
        else { return .null }
        switch operation {
        case "=": return .bool(left == right)
        case "!=": return .bool(left != right)
        case "<": return .bool(left < right)
        case "<=": return .bool(left <= right)
        case ">": return .bool(left > right)
        case ">=": return .bool(left >= right)
        case "^": return .bool(left.core[0] == right.core[0])
        case "~": return .bool(left.core[0] == right.core[0] && left.core[1] == right.core[1])
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
        var core = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(core.count) else { return nil }
        while core.count < 3 { core.append("0") }
        for part in core where !Self.isNumber(part) { return nil }
        var identifiers: [Substring] = []
        if let release {
            identifiers = release.split(separator: ".", omittingEmptySubsequences: false)
            for identifier in identifiers where !Self.isPrereleaseIdentifier(identifier) { return nil }
        }
        if let build {
            for identifier in build.split(separator: ".", omittingEmptySubsequences: false)
            where identifier.isEmpty || !identifier.utf8.allSatisfy(Self.isIdentifierByte) {
                return nil
            }
        }
        self.core = core
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
        for index in 0..<3 {
            let order = compareNumbers(a.core[index], b.core[index])
            if order != 0 { return order }
        }
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
