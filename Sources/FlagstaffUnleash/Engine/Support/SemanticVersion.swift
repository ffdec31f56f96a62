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
            case (.numeric(let a), .numeric(let b)): return a < b
            case (.numeric, .alphanumeric): return true
            case (.alphanumeric, .numeric): return false
            case (.alphanumeric(let a), .alphanumeric(let b)):
                return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
        }
    }

    let major: UInt64
    let minor: UInt64
    let patch: UInt64
    let preRelease: [PreReleaseIdentifier]

    /// Parses `text`, returning `nil` when it is not a valid semantic version.
    ///
    /// Works on the UTF-8 bytes directly: contexts carry versions as text, so this runs on every evaluation of a
    /// `SEMVER_*` constraint.
    init?(_ text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private init(major: UInt64, minor: UInt64, patch: UInt64, preRelease: [PreReleaseIdentifier]) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.preRelease = preRelease
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> SemanticVersion? {
        var index = 0
        func numericPart() -> UInt64? {
            let start = index
            var value: UInt64 = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[index] - 48))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
                index += 1
            }
            let length = index - start
            guard length > 0, !(length > 1 && bytes[start] == 48) else { return nil }
            return value
        }
        guard let major = numericPart(), index < bytes.count, bytes[index] == 46 else { return nil }
        index += 1
        guard let minor = numericPart(), index < bytes.count, bytes[index] == 46 else { return nil }
        index += 1
        guard let patch = numericPart() else { return nil }
        var preRelease: [PreReleaseIdentifier] = []
        if index < bytes.count, bytes[index] == 45 {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != 43 { index += 1 }
            guard let identifiers = identifiers(bytes, start..<index, preRelease: true) else { return nil }
            preRelease = identifiers
        }
        if index < bytes.count {
            guard bytes[index] == 43 else { return nil }
            guard identifiers(bytes, (index + 1)..<bytes.count, preRelease: false) != nil else { return nil }
        }
        return SemanticVersion(major: major, minor: minor, patch: patch, preRelease: preRelease)
    }

    /// Splits dot-separated identifiers; `nil` if one is empty, has a character outside `[0-9A-Za-z-]`, or (for
    /// pre-release) is numeric with a leading zero. Build identifiers are validated but not kept.
    private static func identifiers(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, preRelease: Bool
    ) -> [PreReleaseIdentifier]? {
        var result: [PreReleaseIdentifier] = []
        var start = range.lowerBound
        while true {
            var end = start
            var numeric = true
            while end < range.upperBound, bytes[end] != 46 {
                let byte = bytes[end]
                let isDigit = byte >= 48 && byte <= 57
                let isLetter = (byte | 0x20) >= 97 && (byte | 0x20) <= 122
                guard isDigit || isLetter || byte == 45 else { return nil }
                if !isDigit { numeric = false }
                end += 1
            }
            guard end > start else { return nil }
            if preRelease {
                if numeric {
                    guard !(end - start > 1 && bytes[start] == 48) else { return nil }
                    var value: UInt64 = 0
                    for position in start..<end { value = value &* 10 &+ UInt64(bytes[position] - 48) }
                    result.append(.numeric(value))
                } else {
                    result.append(
                        .alphanumeric(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)))
                }
            }
            if end == range.upperBound { break }
            start = end + 1
        }
        return result
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
