import Foundation

/// How Unleash types the value of an ordinal constraint (`NUM_*`, `DATE_*`, `SEMVER_*`).
///
/// The reference engine types the constraint by the form of its value, not by the operator's name: a value shaped
/// like a date-time compares as a date, one shaped like `1.2.3` as a semantic version, one shaped like a number as a
/// number (so `SEMVER_EQ "1.0"` compares numbers). A value of no known shape makes the whole feature unusable.
enum OrdinalValue {
    case date(Date)
    case semver(SemanticVersion)
    case number(Double)

    /// Types `text` (spaces and tabs around it ignored); `nil` when it has no known shape.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if Self.looksLikeDate(trimmed), let date = RFC3339.parse(trimmed) {
            self = .date(date)
        } else if Self.looksLikeSemver(trimmed) {
            guard let version = SemanticVersion(trimmed) else { return nil }
            self = .semver(version)
        } else if Self.looksLikeNumber(trimmed), let number = NumberParsing.parse(trimmed) {
            self = .number(number)
        } else {
            return nil
        }
    }

    /// `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?(Z|[+-]\d\d:\d\d)`.
    static func looksLikeDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let head = "dddd-dd-ddTdd:dd:dd"
        guard bytes.count >= head.utf8.count + 1 else { return false }
        for (index, pattern) in head.utf8.enumerated() {
            let byte = bytes[index]
            if pattern == UInt8(ascii: "d") {
                guard isDigit(byte) else { return false }
            } else if byte != pattern {
                return false
            }
        }
        var index = head.utf8.count
        if bytes[index] == UInt8(ascii: ".") {
            guard index + 4 <= bytes.count, bytes[(index + 1)..<(index + 4)].allSatisfy(isDigit) else { return false }
            index += 4
        }
        let rest = Array(bytes[index...])
        if rest == [UInt8(ascii: "Z")] { return true }
        guard rest.count == 6, rest[0] == UInt8(ascii: "+") || rest[0] == UInt8(ascii: "-") else { return false }
        return isDigit(rest[1]) && isDigit(rest[2]) && rest[3] == UInt8(ascii: ":") && isDigit(rest[4])
            && isDigit(rest[5])
    }

    /// `\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?`.
    static func looksLikeSemver(_ text: String) -> Bool {
        var core = Substring(text)
        if let plus = core.firstIndex(of: "+") {
            guard fragment(core[core.index(after: plus)...]) else { return false }
            core = core[..<plus]
        }
        if let dash = core.firstIndex(of: "-") {
            guard fragment(core[core.index(after: dash)...]) else { return false }
            core = core[..<dash]
        }
        let parts = core.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy(isDigit) }
    }

    /// `[+-]?\d+(\.\d*)?([eE][+-]?\d+)?`.
    static func looksLikeNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            bytes = bytes.dropFirst()
        }
        let integer = bytes.prefix(while: isDigit)
        guard !integer.isEmpty else { return false }
        bytes = bytes.dropFirst(integer.count)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            bytes = bytes.drop(while: isDigit)
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                bytes = bytes.dropFirst()
            }
            let exponent = bytes.prefix(while: isDigit)
            guard !exponent.isEmpty else { return false }
            bytes = bytes.dropFirst(exponent.count)
        }
        return bytes.isEmpty
    }

    private static func fragment(_ text: Substring) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy {
                isDigit($0) || isLetter($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            }
    }

    @inline(__always) private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    @inline(__always) private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 97 && (byte | 0x20) <= 122
    }
}
