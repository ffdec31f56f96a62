import Foundation

/// The compiled operator and value(s) of one constraint.
enum ConstraintMatcher: Sendable {
    enum Comparison: Sendable { case equal, greater, greaterOrEqual, less, lessOrEqual }

    case inList(StringSet)
    case notInList(StringSet)
    /// `STR_STARTS_WITH`: UTF-8 bytes of the values (lower-cased when case-insensitive).
    case startsWith([[UInt8]], caseInsensitive: Bool)
    case endsWith([[UInt8]], caseInsensitive: Bool)
    case contains([[UInt8]], caseInsensitive: Bool)
    /// An ordinal operator (`NUM_*`, `DATE_*`, `SEMVER_*`) whose value reads as a number.
    case number(Comparison, Double)
    /// An ordinal operator whose value reads as a date-time.
    case date(Comparison, Date)
    /// An ordinal operator whose value reads as a semantic version.
    case semver(Comparison, SemanticVersion)
    case regex(RegexProgram)
    case inCIDR([IPNetwork])
    /// Evaluates to `false`, which `inverted` then flips (an invalid regular expression).
    case alwaysFalse
    /// Never matches, inverted or not (a `SEMVER_*` value with a leading `v`).
    case never
}

/// One compiled constraint: which field, how to test it, and whether the answer is inverted.
///
/// A class for the same reason as ``CompiledStrategy``: iteration retains a reference instead of copying.
final class CompiledConstraint: Sendable {
    let field: ContextField
    let matcher: ConstraintMatcher
    let inverted: Bool

    init(field: ContextField, matcher: ConstraintMatcher, inverted: Bool) {
        self.field = field
        self.matcher = matcher
        self.inverted = inverted
    }
}
