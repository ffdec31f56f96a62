/// The parsed form of a pattern: what ``RegexParser`` produces and ``RegexCompiler`` turns into a program.
indirect enum RegexNode: Sendable {
    case empty
    /// One scalar; folded to its simple case-folding orbit when `caseInsensitive`.
    case scalar(UInt32, caseInsensitive: Bool)
    case set(ScalarClass)
    /// `.`: every scalar, or every scalar but `\n`.
    case any(dotAll: Bool)
    case assertion(RegexAssertion)
    case concat([RegexNode])
    case alternation([RegexNode])
    /// `min...max` copies; `max == nil` is unbounded. Laziness is dropped: it never changes whether a match exists.
    case repetition(RegexNode, min: Int, max: Int?)
}

/// A zero-width test between the previous and the next scalar.
enum RegexAssertion: UInt8, Sendable {
    case beginText, endText, beginLine, endLine, wordBoundary, notWordBoundary

    func holds(previous: UInt32?, next: UInt32?) -> Bool {
        switch self {
        case .beginText: return previous == nil
        case .endText: return next == nil
        case .beginLine: return previous == nil || previous == 0x0A
        case .endLine: return next == nil || next == 0x0A
        case .wordBoundary: return UnicodeClass.isWord(previous) != UnicodeClass.isWord(next)
        case .notWordBoundary: return UnicodeClass.isWord(previous) == UnicodeClass.isWord(next)
        }
    }
}

/// A class tested through Unicode properties (the Rust `regex` meaning of `\d`, `\w`, `\s`, `\p{..}`).
enum UnicodeClass: Sendable, Equatable {
    case digit, word, space
    case category([Unicode.GeneralCategory])

    func contains(_ value: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(value) else { return false }
        switch self {
        case .digit:
            if value < 0x80 { return value >= 0x30 && value <= 0x39 }
            return scalar.properties.generalCategory == .decimalNumber
        case .word: return Self.isWord(value)
        case .space:
            if value < 0x80 { return value == 0x20 || (value >= 0x09 && value <= 0x0D) }
            return scalar.properties.isWhitespace
        case .category(let categories): return categories.contains(scalar.properties.generalCategory)
        }
    }

    /// Unicode `\w`: Alphabetic, marks, decimal digits, connector punctuation, Join_Control.
    static func isWord(_ value: UInt32?) -> Bool {
        guard let value else { return false }
        if value < 0x80 {
            return (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A)
                || (value >= 0x61 && value <= 0x7A)
                || value == 0x5F
        }
        guard let scalar = Unicode.Scalar(value) else { return false }
        let properties = scalar.properties
        if properties.isAlphabetic || properties.isJoinControl { return true }
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }
}

/// A character class: ranges of scalar values where possible, a small tree where Unicode properties take part.
indirect enum ScalarClass: Sendable {
    /// Sorted, non-overlapping, non-adjacent ranges.
    case ranges([ClosedRange<UInt32>])
    case property(UnicodeClass)
    case union([ScalarClass])
    case intersection(ScalarClass, ScalarClass)
    case difference(ScalarClass, ScalarClass)
    case symmetricDifference(ScalarClass, ScalarClass)
    case negated(ScalarClass)
    /// The inner class closed under simple case folding (`(?i)`), applied before any negation as RE2 does.
    case caseFolded(ScalarClass)

    static let maxScalar: UInt32 = 0x10FFFF

    func contains(_ value: UInt32) -> Bool {
        switch self {
        case .ranges(let ranges): return Self.rangesContain(ranges, value)
        case .property(let property): return property.contains(value)
        case .union(let members): return members.contains { $0.contains(value) }
        case .intersection(let left, let right): return left.contains(value) && right.contains(value)
        case .difference(let left, let right): return left.contains(value) && !right.contains(value)
        case .symmetricDifference(let left, let right): return left.contains(value) != right.contains(value)
        case .negated(let inner): return !inner.contains(value)
        case .caseFolded(let inner):
            if inner.contains(value) { return true }
            guard let orbit = RegexCaseFolding.orbit(value) else { return false }
            return orbit.contains { $0 != value && inner.contains($0) }
        }
    }

    /// The most class nodes one ``contains(_:)`` visits (at most `Int.max`): a case-folded class tries the scalar
    /// and each other member of its orbit (at most four), so nested case-folded classes multiply.
    var membershipCost: Int {
        func sum(_ classes: [ScalarClass]) -> Int {
            classes.reduce(1) { total, member in
                let (result, overflow) = total.addingReportingOverflow(member.membershipCost)
                return overflow ? .max : result
            }
        }
        switch self {
        case .ranges, .property: return 1
        case .union(let members): return sum(members)
        case .intersection(let left, let right), .difference(let left, let right),
            .symmetricDifference(let left, let right):
            return sum([left, right])
        case .negated(let inner): return sum([inner])
        case .caseFolded(let inner):
            let (result, overflow) = inner.membershipCost.multipliedReportingOverflow(by: 4)
            return overflow ? .max : result
        }
    }

    /// The same class as plain ranges, when no Unicode property takes part.
    var flattened: [ClosedRange<UInt32>]? {
        switch self {
        case .ranges(let ranges): return ranges
        case .property: return nil
        case .union(let members):
            var all: [ClosedRange<UInt32>] = []
            for member in members {
                guard let ranges = member.flattened else { return nil }
                all += ranges
            }
            return Self.normalized(all)
        case .intersection(let left, let right):
            guard let left = left.flattened, let right = right.flattened else { return nil }
            return Self.complement(Self.normalized(Self.complement(left) + Self.complement(right)))
        case .difference(let left, let right):
            guard let left = left.flattened, let right = right.flattened else { return nil }
            return Self.complement(Self.normalized(Self.complement(left) + right))
        case .symmetricDifference(let left, let right):
            guard let left = left.flattened, let right = right.flattened else { return nil }
            let leftOnly = Self.complement(Self.normalized(Self.complement(left) + right))
            let rightOnly = Self.complement(Self.normalized(Self.complement(right) + left))
            return Self.normalized(leftOnly + rightOnly)
        case .negated(let inner):
            guard let ranges = inner.flattened else { return nil }
            return Self.complement(ranges)
        case .caseFolded(let inner): return inner.flattened.map(RegexCaseFolding.closed)
        }
    }

    static func rangesContain(_ ranges: [ClosedRange<UInt32>], _ value: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < value {
                low = middle + 1
            } else if ranges[middle].lowerBound > value {
                high = middle
            } else {
                return true
            }
        }
        return false
    }

    /// Sorts and merges overlapping or adjacent ranges.
    static func normalized(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound &+ 1 {
                if range.upperBound > last.upperBound { result[result.count - 1] = last.lowerBound...range.upperBound }
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// Every scalar value not in `ranges` (which must be normalized).
    static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            if range.upperBound >= maxScalar { return result }
            next = range.upperBound + 1
        }
        result.append(next...maxScalar)
        return result
    }
}
