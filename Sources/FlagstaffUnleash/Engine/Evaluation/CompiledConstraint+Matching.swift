import Foundation

extension CompiledConstraint {
    /// Whether `context` satisfies this constraint.
    ///
    /// A missing context value fails every operator except `NOT_IN` (which it passes); then `inverted` flips the
    /// answer. A ``ConstraintMatcher/never`` constraint fails whatever `inverted` says.
    @inline(__always)
    func matches(_ context: UnleashContext) -> Bool {
        let result: Bool
        switch matcher {
        case .never:
            return false
        case .alwaysFalse:
            result = false
        case .date(let comparison, let bound):
            guard let date = dateValue(context) else {
                result = false
                break
            }
            result = Self.compare(date, bound, comparison)
        default:
            guard let value = field.value(in: context) else {
                if case .notInList = matcher { return !inverted }
                return inverted
            }
            result = matches(value)
        }
        return inverted ? !result : result
    }

    /// The context's date for a date-typed constraint: `currentTime` defaults to now (whole seconds, as the
    /// reference engine), other fields are parsed from their text.
    private func dateValue(_ context: UnleashContext) -> Date? {
        if case .currentTime = field {
            return context.currentTime ?? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        }
        return field.value(in: context).flatMap(RFC3339.parse)
    }

    private func matches(_ value: String) -> Bool {
        switch matcher {
        case .inList(let values): return values.contains(value)
        case .notInList(let values): return !values.contains(value)
        case .startsWith(let prefixes, let ci):
            let (subject, fold) = Self.caseFolded(value, ci)
            return prefixes.contains { UTF8Matching.hasPrefix(subject, $0, foldASCII: fold) }
        case .endsWith(let suffixes, let ci):
            let (subject, fold) = Self.caseFolded(value, ci)
            return suffixes.contains { UTF8Matching.hasSuffix(subject, $0, foldASCII: fold) }
        case .contains(let parts, let ci):
            let (subject, fold) = Self.caseFolded(value, ci)
            return parts.contains { UTF8Matching.contains(subject, $0, foldASCII: fold) }
        case .number(let comparison, let bound):
            guard let number = NumberParsing.parse(value) else { return false }
            if comparison == .equal { return abs(number - bound) < Double.ulpOfOne }
            return Self.compare(number, bound, comparison)
        case .semver(let comparison, let bound):
            guard let version = SemanticVersion(value) else { return false }
            return Self.compare(version, bound, comparison)
        case .regex(let regex):
            return regex.matches(value)
        case .inCIDR(let networks):
            guard let address = IPAddress(value) else { return false }
            return networks.contains { $0.contains(address) }
        case .date, .alwaysFalse, .never:
            return false
        }
    }

    /// For case-insensitive operators: ASCII text is folded byte by byte while matching (no copy); other text is
    /// lower-cased with Unicode rules first, as the reference engine's `to_lowercase` does.
    @inline(__always)
    private static func caseFolded(_ value: String, _ caseInsensitive: Bool) -> (String, Bool) {
        guard caseInsensitive else { return (value, false) }
        return UTF8Matching.isASCII(value) ? (value, true) : (value.lowercased(), false)
    }

    @inline(__always)
    private static func compare<T: Comparable>(_ value: T, _ bound: T, _ comparison: ConstraintMatcher.Comparison)
        -> Bool
    {
        switch comparison {
        case .equal: return value == bound
        case .greater: return value > bound
        case .greaterOrEqual: return value >= bound
        case .less: return value < bound
        case .lessOrEqual: return value <= bound
        }
    }
}
