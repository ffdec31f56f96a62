import Flagstaff
import Foundation

/// JsonLogic's conversions and comparisons, as the reference evaluator (openfeature-flagd-core's JsonLogic) does
/// them: truthiness, numbers from any value, text from any value, loose and strict equality, ordering.
///
/// Numbers are `Double`s, as in JavaScript and in flagd's Go core. Text is compared by Unicode scalar (the order
/// of UTF-8 bytes), never by `String`'s canonical equivalence, so `"é"` and `"e\u{301}"` differ as they do in
/// flagd.
enum JSONLogicCoercion {
    /// Whether a value counts as true: `false`, `null`, `0`, `NaN`, `""` and `[]` do not; objects do.
    static func truthy(_ value: JSONValue) -> Bool {
        switch value {
        case .null: return false
        case .bool(let flag): return flag
        case .number(let number): return !number.isNaN && number != 0
        case .string(let text): return !text.isEmpty
        case .array(let elements): return !elements.isEmpty
        case .object: return true
        }
    }

    /// A value as a number: `null` is 0, booleans 1 and 0, text read as a decimal number (else `NaN`), `[]` 0,
    /// a one-element array its element, anything else `NaN`.
    static func number(_ value: JSONValue) -> Double {
        switch value {
        case .null: return 0
        case .bool(let flag): return flag ? 1 : 0
        case .number(let number): return number
        case .string(let text): return number(text)
        case .array(let elements):
            if elements.isEmpty { return 0 }
            return elements.count == 1 ? number(elements[0]) : .nan
        case .object: return .nan
        }
    }

    /// Text read as a number: optional white space around an optional sign, digits with an optional fraction and
    /// exponent, or `nan` / `infinity` (any case). `inf` alone and the empty text are not numbers.
    static func number(_ text: String) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .nan }
        let lower = trimmed.lowercased()
        let unsigned = lower.hasPrefix("+") || lower.hasPrefix("-") ? String(lower.dropFirst()) : lower
        if unsigned == "inf" { return .nan }
        if unsigned == "nan" { return .nan }
        if unsigned == "infinity" { return lower.hasPrefix("-") ? -.infinity : .infinity }
        var digits = 0
        var seenDot = false
        var seenExponent = false
        var previous: UInt8 = 0
        for byte in unsigned.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."):
                if seenDot || seenExponent { return .nan }
                seenDot = true
            case UInt8(ascii: "e"):
                if seenExponent || digits == 0 { return .nan }
                seenExponent = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                if previous != UInt8(ascii: "e") { return .nan }
            default: return .nan
            }
            previous = byte
        }
        guard digits > 0, previous != UInt8(ascii: "e"), previous != UInt8(ascii: "+"),
            previous != UInt8(ascii: "-")
        else { return .nan }
        return Double(trimmed.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .nan
    }

    /// A value as text: numbers as `%.15g` writes them (whole numbers as their digits), `null`, `true`, `false`,
    /// arrays as their elements' text joined by commas, objects as `[object Object]`.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .number(let number): return numberText(number)
        case .string(let text): return text
        case .array(let elements): return elements.map(text).joined(separator: ",")
        case .object: return "[object Object]"
        }
    }

    /// A number as `cat` writes it.
    static func numberText(_ number: Double) -> String {
        if number == number.rounded(.towardZero), abs(number) < 1e15 { return String(Int64(number)) }
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        return String(format: "%.15g", number)
    }

    /// A number as it names a variant or a version: whole numbers as their digits, others in their shortest
    /// form (`0.5`, `1e+16`).
    static func nameText(_ number: Double) -> String {
        if number == number.rounded(.towardZero), abs(number) < 1e16 { return String(Int64(number)) }
        return "\(number)"
    }

    /// Loose equality (`==`): numbers, booleans and `null` compare as numbers against numbers; text against an
    /// array or object compares with its text; two arrays or objects are never equal (JsonLogic compares them by
    /// identity, which values do not have).
    static func looselyEqual(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.array, .array), (.object, .object), (.array, .object), (.object, .array): return false
        case (.number, _), (.bool, _), (_, .number), (_, .bool):
            return number(left) == number(right)
        case (.null, _), (_, .null): return false
        case (.string(let a), _): return a.utf8.elementsEqual(text(right).utf8)
        case (_, .string(let b)): return text(left).utf8.elementsEqual(b.utf8)
        }
    }

    /// Strict equality (`===`, and membership in an array): the same kind of value and equal, numbers and
    /// booleans counting as one kind (`true === 1`, as in the reference), arrays and objects member by member.
    static func strictlyEqual(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.number(let a), .number(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.number, .bool), (.bool, .number): return number(left) == number(right)
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { strictlyEqual($0, $1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            for (name, value) in a {
                guard let other = b[exactly: name], strictlyEqual(value, other) else { return false }
            }
            return true
        default: return false
        }
    }

    /// How two values order: numbers (and booleans) as numbers, text against text by Unicode scalar, anything
    /// else against text by its text, and as numbers otherwise. `nil` when unordered (`NaN`).
    static func compare(_ left: JSONValue, _ right: JSONValue) -> ComparisonResult? {
        if isNumeric(left) || isNumeric(right) {
            return numbers(number(left), number(right))
        }
        if case .string(let a) = left { return texts(a, text(right)) }
        if case .string(let b) = right { return texts(text(left), b) }
        return numbers(number(left), number(right))
    }

    private static func isNumeric(_ value: JSONValue) -> Bool {
        switch value {
        case .number, .bool: return true
        default: return false
        }
    }

    private static func numbers(_ a: Double, _ b: Double) -> ComparisonResult? {
        if a < b { return .orderedAscending }
        if a > b { return .orderedDescending }
        return a == b ? .orderedSame : nil
    }

    private static func texts(_ a: String, _ b: String) -> ComparisonResult {
        if a.utf8.elementsEqual(b.utf8) { return .orderedSame }
        return a.utf8.lexicographicallyPrecedes(b.utf8) ? .orderedAscending : .orderedDescending
    }
}
