/// A Semantic Versioning 2.0.0 version, parsed strictly, as the `SEMVER_*` constraint operators compare them.
///
/// Strict means what semver.org says: three numeric parts without leading zeros, an optional pre-release after
/// `-`, optional build metadata after `+`. A leading `v` or anything else makes the version invalid, and an
/// invalid version never matches. Build metadata is ignored when comparing.
struct SemanticVersion: Sendable, Comparable {
    enum PreReleaseIdentifier: Sendable, Comparable {
        case numeric(UInt64)
        case alphanumeric(String)

        static func < (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case let (.numeric(a), .numeric(b)): return a < b
            case (.numeric, .alphanumeric): return true
            case (.alphanumeric, .numeric): return false
            case let (.alphanumeric(a), .alphanumeric(b)): return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
        }
    }

    let major: UInt64
    let minor: UInt64
    let patch: UInt64
    let preRelease: [PreReleaseIdentifier]

    /// Parses `text`, returning `nil` when it is not a valid semantic version.
    init?(_ text: String) {
        var core = Substring(text)
        if let plus = core.firstIndex(of: "+") {
            let build = core[core.index(after: plus)...]
            guard Self.validIdentifiers(build, numericRule: false) else { return nil }
            core = core[..<plus]
        }
        var pre: [PreReleaseIdentifier] = []
        if let dash = core.firstIndex(of: "-") {
            let preText = core[core.index(after: dash)...]
            guard Self.validIdentifiers(preText, numericRule: true) else { return nil }
            for part in preText.split(separator: ".", omittingEmptySubsequences: false) {
                if part.allSatisfy(\.isASCIIDigit), let value = UInt64(part) {
                    pre.append(.numeric(value))
                } else {
                    pre.append(.alphanumeric(String(part)))
                }
            }
            core = core[..<dash]
        }
        let numbers = core.split(separator: ".", omittingEmptySubsequences: false)
        guard numbers.count == 3,
            let major = Self.numericPart(numbers[0]),
            let minor = Self.numericPart(numbers[1]),
            let patch = Self.numericPart(numbers[2])
        else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
        self.preRelease = pre
    }

    private static func numericPart(_ part: Substring) -> UInt64? {
        guard !part.isEmpty, part.allSatisfy(\.isASCIIDigit) else { return nil }
        if part.count > 1 && part.first == "0" { return nil }
        return UInt64(part)
    }

    private static func validIdentifiers(_ text: Substring, numericRule: Bool) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        for part in parts {
            guard !part.isEmpty else { return false }
            guard part.allSatisfy({ $0.isASCIIDigit || $0.isASCIILetter || $0 == "-" }) else { return false }
            if numericRule, part.allSatisfy(\.isASCIIDigit), part.count > 1, part.first == "0" { return false }
        }
        return true
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
        if lhs.major != rhs.major { return lhs.major < rhs.major }
        if lhs.minor != rhs.minor { return lhs.minor < rhs.minor }
        if lhs.patch != rhs.patch { return lhs.patch < rhs.patch }
        // A version without pre-release ranks above any pre-release of the same core version.
        switch (lhs.preRelease.isEmpty, rhs.preRelease.isEmpty) {
        case (true, true), (true, false): return false
        case (false, true): return true
        case (false, false): return lhs.preRelease.lexicographicallyPrecedes(rhs.preRelease)
        }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.major == rhs.major && lhs.minor == rhs.minor && lhs.patch == rhs.patch && lhs.preRelease == rhs.preRelease
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
    var isASCIILetter: Bool { isASCII && isLetter }
}
