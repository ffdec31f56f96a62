import Foundation

/// The compiled operator and value(s) of one constraint.
enum ConstraintMatcher: Sendable {
    enum Comparison: Sendable { case equal, greater, greaterOrEqual, less, lessOrEqual }

    case inList(Set<String>)
    case notInList(Set<String>)
    case startsWith([String], caseInsensitive: Bool)
    case endsWith([String], caseInsensitive: Bool)
    case contains([String], caseInsensitive: Bool)
    case number(Comparison, Double)
    case dateAfter(Date)
    case dateBefore(Date)
    case semver(Comparison, SemanticVersion)
    case regex(SharedRegex)
    case inCIDR([IPNetwork])
    /// Unknown operator or unusable constraint value: never matches, inverted or not.
    case invalid
}

/// One compiled constraint: which field, how to test it, and whether the answer is inverted.
struct CompiledConstraint: Sendable {
    let field: ContextField
    let matcher: ConstraintMatcher
    let inverted: Bool
}
