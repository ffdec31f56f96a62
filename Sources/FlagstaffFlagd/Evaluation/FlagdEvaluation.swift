import Flagstaff

/// The outcome of evaluating one flagd flag: the fields of flagd's OFREP answer.
///
/// A failed evaluation is still an evaluation: ``value`` is the caller's default, ``reason`` is
/// ``FlagdReason/error`` and ``errorCode`` says why (as flagd and its providers report it).
public struct FlagdEvaluation: Sendable, Equatable {
    /// The flag's key.
    public var key: String
    /// The resolved value: the variant's value, or the caller's default (`nil` when the caller gave none) when
    /// the flag is disabled, has no default variant, or failed.
    public var value: JSONSettingValue?
    /// The variant's name, or `nil` when no variant was chosen.
    public var variant: String?
    /// Why this value: `STATIC`, `TARGETING_MATCH`, `DEFAULT`, `DISABLED` or `ERROR`.
    public var reason: FlagdReason
    /// Why the evaluation failed, when it did.
    public var errorCode: FlagdErrorCode?
    /// What went wrong, naming the flag and, for rules, the place in its targeting.
    public var errorMessage: String?
    /// The flag's metadata over its flag set's (a flag's member wins).
    public var metadata: [String: JSONSettingValue]

    /// Creates an evaluation.
    /// - Parameters:
    ///   - key: the flag's key.
    ///   - value: the resolved value.
    ///   - variant: the chosen variant.
    ///   - reason: why this value.
    ///   - errorCode: why it failed.
    ///   - errorMessage: what went wrong.
    ///   - metadata: the merged metadata.
    public init(
        key: String, value: JSONSettingValue?, variant: String?, reason: FlagdReason,
        errorCode: FlagdErrorCode? = nil, errorMessage: String? = nil, metadata: [String: JSONSettingValue] = [:]
    ) {
        self.key = key
        self.value = value
        self.variant = variant
        self.reason = reason
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.metadata = metadata
    }
}

/// Why a flagd evaluation gave its value, spelled as flagd spells it (`TARGETING_MATCH`).
public struct FlagdReason: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The reason as flagd writes it.
    public var rawValue: String

    /// Creates a reason from flagd's spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The flag has no targeting: its default variant.
    public static let `static` = FlagdReason(rawValue: "STATIC")
    /// The targeting chose a variant.
    public static let targetingMatch = FlagdReason(rawValue: "TARGETING_MATCH")
    /// The targeting gave `null`, or the flag has no default variant.
    public static let `default` = FlagdReason(rawValue: "DEFAULT")
    /// The flag's state is `DISABLED`: the caller's default.
    public static let disabled = FlagdReason(rawValue: "DISABLED")
    /// The evaluation failed (see ``FlagdEvaluation/errorCode``).
    public static let error = FlagdReason(rawValue: "ERROR")

    /// The raw value.
    public var description: String { rawValue }
}

/// Why a flagd evaluation failed, spelled as OpenFeature spells it (`FLAG_NOT_FOUND`).
public struct FlagdErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The code as OpenFeature writes it.
    public var rawValue: String

    /// Creates a code from OpenFeature's spelling.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The definitions have no flag with this key.
    public static let flagNotFound = FlagdErrorCode(rawValue: "FLAG_NOT_FOUND")
    /// The value is not of the type asked for.
    public static let typeMismatch = FlagdErrorCode(rawValue: "TYPE_MISMATCH")
    /// The flag's targeting cannot be evaluated (an unknown operator, a missing `$ref`, a limit exceeded).
    public static let parseError = FlagdErrorCode(rawValue: "PARSE_ERROR")
    /// Anything else: the targeting named no variant, the default variant is missing, a rule failed.
    public static let general = FlagdErrorCode(rawValue: "GENERAL")

    /// The raw value.
    public var description: String { rawValue }
}

/// The type an evaluation asks for, as OpenFeature's typed resolvers do.
public enum FlagdValueType: Sendable, Hashable {
    /// Any value (what OFREP and `flagstaff flagd eval` ask for).
    case any
    /// `true` or `false`.
    case boolean
    /// A string.
    case string
    /// A whole number (a number with a fraction is a mismatch).
    case integer
    /// Any number.
    case float
    /// An object or an array.
    case object

    func accepts(_ value: JSONSettingValue) -> Bool {
        switch (self, value) {
        case (.any, _), (.boolean, .bool), (.string, .string), (.float, .number), (.object, .object),
            (.object, .array):
            return true
        case (.integer, .number(let number)):
            return number == number.rounded(.towardZero) && abs(number) < 9.223_372_036_854_775_808e18
        default:
            return false
        }
    }
}

/// How `fractional` turns its bucketing value into bytes to hash.
public enum FlagdBucketing: Sendable, Hashable {
    /// flagd's Go core today: the UTF-8 bytes of a string bucketing value (the shorthand hashes
    /// `flagKey + targetingKey`).
    case version2
    /// The accepted design (flagd test bed 3.9.0): the deterministic CBOR encoding of any non-null, non-array
    /// bucketing value (the shorthand hashes the array `[flagKey, targetingKey]`).
    case version3
}
