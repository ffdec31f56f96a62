import Foundation

/// The compiled operator and value(s) of one constraint.
enum ConstraintMatcher: Sendable {
    enum Comparison: Sendable { case equal, greater, greaterOrEqual, less, lessOrEqual }

    case inList(Set<String>)
    case notInList(Set<String>)
    case startsWith([String], caseInsensitive: Bool)
    case endsWith([String], caseInsensitive: Bool)
    case contains([String], caseInsensitive: Bool)
    /// An ordinal operator (`NUM_*`, `DATE_*`, `SEMVER_*`) whose value reads as a number.
    case number(Comparison, Double)
    /// An ordinal operator whose value reads as a date-time.
    case date(Comparison, Date)
    /// An ordinal operator whose value reads as a semantic version.
    case semver(Comparison, SemanticVersion)
    case regex(SharedRegex)
    case inCIDR([IPNetwork])
    /// Evaluates to `false`, which `inverted` then flips (an invalid regular expression).
    case alwaysFalse
    /// Never matches, inverted or not (a `SEMVER_*` value with a leading `v`).
    case never
}

/// One compiled constraint: which field, how to test it, and whether the answer is inverted.
struct CompiledConstraint: Sendable {
    let field: ContextField
    let matcher: ConstraintMatcher
    let inverted: Bool
}
