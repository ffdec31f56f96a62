import Flagstaff
import Foundation

/// Evaluates compiled rules for one flag and one context.
///
/// The context is never copied into a JsonLogic data object: `var` reads the caller's context, the targeting key
/// and `$flagd` (`flagKey`, `timestamp`) where they are. Every node evaluated and every element or character
/// produced is paid from a budget, so a rule that grows (a `reduce` that doubles an array) stops with an error
/// instead of exhausting memory or time.
struct RuleEvaluator {
    /// The work one evaluation may do: nodes evaluated, array elements and characters (by eight) produced.
    static let budget = 1_000_000

    let flagKey: String
    let context: [String: JSONValue]
    /// The context's `targetingKey` when it is a string.
    let targetingKey: String?
    let bucketing: FlagdBucketing
    /// `$flagd.timestamp`, read from the clock when a rule first asks.
    var timestamp: Int64?
    var remaining = RuleEvaluator.budget

    /// What `var` reads: the evaluation context, or the item of an iteration.
    enum Scope {
        case context
        case value(JSONValue)
    }

    init(flagKey: String, context: [String: JSONValue], bucketing: FlagdBucketing, timestamp: Int64?) {
        self.flagKey = flagKey
        self.context = context
        if case .string(let key)? = context[exactly: "targetingKey"] { targetingKey = key } else { targetingKey = nil }
        self.bucketing = bucketing
        self.timestamp = timestamp
    }

    @inline(__always) mutating func pay(_ amount: Int) throws(RuleFailure) {
        remaining -= amount
        if remaining < 0 {
            throw RuleFailure.general("the evaluation exceeded its cost limit (\(Self.budget) steps)")
        }
    }

    mutating func evaluate(_ rule: Rule, in scope: Scope) throws(RuleFailure) -> JSONValue {
        try pay(1)
        switch rule {
        case .literal(let value):
            return value
        case .path(let path, let fallback):
            let found = try read(path, in: scope)
            if case .null = found, let fallback { return try evaluate(fallback, in: scope) }
            return found
        case .array(let rules):
            try pay(rules.count)
            var values: [JSONValue] = []
            values.reserveCapacity(rules.count)
            for element in rules { values.append(try evaluate(element, in: scope)) }
            return .array(values)
        case .branch(let rules):
            var index = 0
            while index < rules.count - 1 {
                if JSONLogicCoercion.truthy(try evaluate(rules[index], in: scope)) {
                    return try evaluate(rules[index + 1], in: scope)
                }
                index += 2
            }
            return index < rules.count ? try evaluate(rules[index], in: scope) : .null
        case .and(let rules):
            var current = JSONValue.null
            for operand in rules {
                current = try evaluate(operand, in: scope)
                if !JSONLogicCoercion.truthy(current) { return current }
            }
            return current
        case .or(let rules):
            var current = JSONValue.null
            for operand in rules {
                current = try evaluate(operand, in: scope)
                if JSONLogicCoercion.truthy(current) { return current }
            }
            return current
        case .iteration(let kind, let items, let body):
            return try iterate(kind, items: items, body: body, in: scope)
        case .reduce(let items, let body, let initial):
            guard case .array(let elements) = try evaluate(items, in: scope) else { return initial }
            var accumulator = initial
            for element in elements {
                let item = JSONValue.object(["current": element, "accumulator": accumulator])
                accumulator = try body.map { body throws(RuleFailure) in try evaluate(body, in: .value(item)) } ?? .null
            }
            return accumulator
        case .semanticVersion(let rule, let operation, let version):
            guard let left = SemanticVersion(try evaluate(rule, in: scope)) else { return .null }
            return SemanticVersion.compare(left, operation, version)
        case .call(let operation, let rules):
            var values: [JSONValue] = []
            values.reserveCapacity(rules.count)
            for operand in rules { values.append(try evaluate(operand, in: scope)) }
            return try apply(operation, values, in: scope)
        }
    }

    private mutating func iterate(_ kind: Rule.Iteration, items: Rule, body: Rule?, in scope: Scope)
        throws(RuleFailure) -> JSONValue
    {
        // As the reference: without a rule, `all` and `some` are false, `none` true, `map` and `filter` empty.
        guard let body else {
            switch kind {
            case .all, .some: return .bool(false)
            case .none: return .bool(true)
            case .map, .filter: return .array([])
            }
        }
        let evaluated = try evaluate(items, in: scope)
        guard case .array(let elements) = evaluated else {
            switch kind {
            case .all, .some: return .bool(false)
            case .none: return .bool(true)
            case .map, .filter: return .array([])
            }
        }
        switch kind {
        case .map:
            try pay(elements.count)
            var mapped: [JSONValue] = []
            mapped.reserveCapacity(elements.count)
            for element in elements { mapped.append(try evaluate(body, in: .value(element))) }
            return .array(mapped)
        case .filter:
            try pay(elements.count)
            var kept: [JSONValue] = []
            for element in elements where JSONLogicCoercion.truthy(try evaluate(body, in: .value(element))) {
                kept.append(element)
            }
            return .array(kept)
        case .all:
            if elements.isEmpty { return .bool(false) }
            for element in elements where !JSONLogicCoercion.truthy(try evaluate(body, in: .value(element))) {
                return .bool(false)
            }
            return .bool(true)
        case .some, .none:
            for element in elements where JSONLogicCoercion.truthy(try evaluate(body, in: .value(element))) {
                return .bool(kind == .some)
            }
            return .bool(kind == .none)
        }
    }

    // MARK: var

    /// `$flagd`, as rules see it.
    private mutating func flagdObject() -> JSONValue {
        .object(["flagKey": .string(flagKey), "timestamp": .number(Double(currentTimestamp()))])
    }

    mutating func currentTimestamp() -> Int64 {
        if let timestamp { return timestamp }
        let now = Int64(Date().timeIntervalSince1970.rounded(.down))
        timestamp = now
        return now
    }

    /// The whole data object of the context scope: the context, `targetingKey` and `$flagd`.
    private mutating func contextObject() -> JSONValue {
        var members = context
        members["targetingKey"] = targetingKey.map(JSONValue.string) ?? .null
        members["$flagd"] = flagdObject()
        return .object(members)
    }

    /// The first component of a path in the context scope.
    private mutating func contextMember(_ name: String) -> JSONValue? {
        switch name {
        case "targetingKey": return targetingKey.map(JSONValue.string)
        case "$flagd": return flagdObject()
        default: return context[exactly: name]
        }
    }

    private mutating func read(_ path: VariablePath, in scope: Scope) throws(RuleFailure) -> JSONValue {
        var current: JSONValue
        var start = 0
        switch scope {
        case .context:
            // The common `$flagd.flagKey` and `$flagd.timestamp` without building `$flagd`.
            if path.components[0] == "$flagd", path.components.count > 1 {
                switch path.components[1] {
                case "flagKey": current = .string(flagKey)
                case "timestamp": current = .number(Double(currentTimestamp()))
                default: return .null
                }
                start = 2
            } else {
                guard let member = contextMember(path.components[0]) else { return .null }
                current = member
                start = 1
            }
        case .value(let value):
            current = value
        }
        var index = start
        while index < path.components.count {
            switch current {
            case .object(let members):
                guard let next = members[exactly: path.components[index]] else { return .null }
                current = next
            case .array(let elements):
                if path.components[index] == "length" { return .number(Double(elements.count)) }
                guard let position = path.indices[index], position < elements.count else { return .null }
                current = elements[position]
            case .string(let text):
                let scalars = text.unicodeScalars
                if path.components[index] == "length" { return .number(Double(scalars.count)) }
                guard let position = path.indices[index], position < scalars.count else { return .null }
                current = .string(String(scalars[scalars.index(scalars.startIndex, offsetBy: position)]))
            default:
                return .null
            }
            index += 1
        }
        return current
    }

    /// `var` with a computed key: `""` and `null` are the whole scope, numbers index arrays and strings.
    private mutating func variable(_ key: JSONValue, fallback: JSONValue, in scope: Scope) throws(RuleFailure)
        -> JSONValue
    {
        let found: JSONValue
        switch key {
        case .null:
            found = scopeValue(scope)
        case .string(let text) where text.isEmpty:
            found = scopeValue(scope)
        case .number, .bool:
            let number = JSONLogicCoercion.number(key)
            guard case .value(let data) = scope, number.isFinite, number == number.rounded(.towardZero),
                number >= 0, number < Double(Int.max)
            else { return fallback }
            let position = Int(number)
            switch data {
            case .array(let elements) where position < elements.count:
                found = elements[position]
            case .string(let text) where position < text.unicodeScalars.count:
                let scalars = text.unicodeScalars
                found = .string(String(scalars[scalars.index(scalars.startIndex, offsetBy: position)]))
            default:
                return fallback
            }
        default:
            found = try read(VariablePath(JSONLogicCoercion.text(key)), in: scope)
        }
        if case .null = found { return fallback }
        return found
    }

    private mutating func scopeValue(_ scope: Scope) -> JSONValue {
        switch scope {
        case .context: return contextObject()
        case .value(let value): return value
        }
    }

    // MARK: Operators

    private mutating func apply(_ operation: Operator, _ values: [JSONValue], in scope: Scope) throws(RuleFailure)
        -> JSONValue
    {
        @inline(__always) func argument(_ index: Int) -> JSONValue {
            index < values.count ? values[index] : .null
        }
        switch operation {
        case .variable:
            return try variable(argument(0), fallback: argument(1), in: scope)
        case .equal: return .bool(JSONLogicCoercion.looselyEqual(argument(0), argument(1)))
        case .notEqual: return .bool(!JSONLogicCoercion.looselyEqual(argument(0), argument(1)))
        case .strictEqual: return .bool(JSONLogicCoercion.strictlyEqual(argument(0), argument(1)))
        case .strictNotEqual: return .bool(!JSONLogicCoercion.strictlyEqual(argument(0), argument(1)))
        case .less, .greater, .lessOrEqual, .greaterOrEqual:
            return .bool(Self.ordered(operation, values))
        case .not: return .bool(!JSONLogicCoercion.truthy(argument(0)))
        case .truthy: return .bool(JSONLogicCoercion.truthy(argument(0)))
        case .add: return .number(values.reduce(0) { $0 + JSONLogicCoercion.number($1) })
        case .multiply: return .number(values.reduce(1) { $0 * JSONLogicCoercion.number($1) })
        case .subtract:
            if case .null = argument(1) { return .number(-JSONLogicCoercion.number(argument(0))) }
            return .number(JSONLogicCoercion.number(argument(0)) - JSONLogicCoercion.number(argument(1)))
        case .divide:
            let divisor = JSONLogicCoercion.number(argument(1))
            if divisor == 0 { throw RuleFailure.general("\"/\" divides by zero") }
            return .number(JSONLogicCoercion.number(argument(0)) / divisor)
        case .remainder:
            let divisor = JSONLogicCoercion.number(argument(1))
            if divisor == 0 { throw RuleFailure.general("\"%\" divides by zero") }
            // Floored, as the reference (Python's `%`): the result has the divisor's sign.
            var result = fmod(JSONLogicCoercion.number(argument(0)), divisor)
            if result != 0, (result < 0) != (divisor < 0) { result += divisor }
            return .number(result)
        case .in:
            switch argument(1) {
            case .array(let elements):
                let needle = argument(0)
                return .bool(elements.contains { JSONLogicCoercion.strictlyEqual(needle, $0) })
            case .string(let haystack):
                return .bool(Self.contains(haystack, JSONLogicCoercion.text(argument(0))))
            default:
                return .bool(false)
            }
        case .min, .max:
            guard !values.isEmpty else { return .number(.nan) }
            var best = JSONLogicCoercion.number(values[0])
            for value in values.dropFirst() {
                let number = JSONLogicCoercion.number(value)
                if operation == .min ? number < best : number > best { best = number }
            }
            return .number(best)
        case .cat:
            var text = ""
            for value in values { text += JSONLogicCoercion.text(value) }
            try pay(text.utf8.count / 8)
            return .string(text)
        case .log:
            return argument(0)
        case .substr:
            let text = Self.substring(
                JSONLogicCoercion.text(argument(0)), argument(1), values.count > 2 ? argument(2) : .null)
            try pay(text.utf8.count / 8)
            return .string(text)
        case .merge:
            var merged: [JSONValue] = []
            for value in values {
                if case .array(let elements) = value {
                    merged.append(contentsOf: elements)
                } else {
                    merged.append(value)
                }
            }
            try pay(merged.count)
            return .array(merged)
        case .missing:
            let keys: [JSONValue]
            if case .array(let list)? = values.first { keys = list } else { keys = values }
            return .array(try missing(keys, in: scope))
        case .missingSome:
            guard case .array(let keys) = argument(1) else { return .array([]) }
            let needed = JSONLogicCoercion.number(argument(0))
            let absent = try missing(keys, in: scope)
            return Double(keys.count - absent.count) >= needed ? .array([]) : .array(absent)
        case .fractional:
            return try Fractional.evaluate(values, evaluator: &self)
        case .semanticVersion:
            return SemanticVersion.evaluate(values)
        case .startsWith, .endsWith:
            guard values.count == 2, case .string(let text) = values[0], case .string(let affix) = values[1] else {
                return .null
            }
            return .bool(operation == .startsWith ? text.utf8.starts(with: affix.utf8) : Self.ends(text, with: affix))
        }
    }

    private mutating func missing(_ keys: [JSONValue], in scope: Scope) throws(RuleFailure) -> [JSONValue] {
        try pay(keys.count)
        var absent: [JSONValue] = []
        for key in keys {
            let found = try variable(key, fallback: .null, in: scope)
            switch found {
            case .null: absent.append(key)
            case .string(let text) where text.isEmpty: absent.append(key)
            default: break
            }
        }
        return absent
    }

    private static func ordered(_ operation: Operator, _ values: [JSONValue]) -> Bool {
        func holds(_ left: JSONValue, _ right: JSONValue) -> Bool {
            guard let order = JSONLogicCoercion.compare(left, right) else { return false }
            switch operation {
            case .less: return order == .orderedAscending
            case .greater: return order == .orderedDescending
            case .lessOrEqual: return order != .orderedDescending
            default: return order != .orderedAscending
            }
        }
        let first = values.count > 0 ? values[0] : .null
        let second = values.count > 1 ? values[1] : .null
        // A third operand that is `null` (or absent) is no third operand, as in the reference.
        if values.count > 2, values[2] != .null {
            return holds(first, second) && holds(second, values[2])
        }
        return holds(first, second)
    }

    /// Whether `text` contains `part`, by bytes (Unicode scalars), not by canonical equivalence.
    static func contains(_ text: String, _ part: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(part.utf8)
        if needle.isEmpty { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    static func ends(_ text: String, with suffix: String) -> Bool {
        let bytes = Array(text.utf8)
        let tail = Array(suffix.utf8)
        return tail.count <= bytes.count && bytes[(bytes.count - tail.count)...].elementsEqual(tail)
    }

    /// `substr`: a start (negative counts from the end) and an optional length (negative leaves that many off the
    /// end), in Unicode scalars.
    static func substring(_ text: String, _ start: JSONValue, _ length: JSONValue) -> String {
        let scalars = Array(text.unicodeScalars)
        let count = scalars.count
        var from: Int
        let startNumber = JSONLogicCoercion.number(start)
        if startNumber.isNaN {
            from = 0
        } else if startNumber < 0 {
            let back = -startNumber
            from = back >= Double(count) ? 0 : count - Int(back)
        } else {
            from = startNumber >= Double(count) ? count : Int(startNumber)
        }
        var end: Int
        if case .null = length {
            end = count
        } else {
            // Truncated first, then its sign read, as the reference does (-0.25 is a length of 0).
            let lengthNumber = JSONLogicCoercion.number(length).rounded(.towardZero)
            if lengthNumber.isNaN {
                end = from
            } else if lengthNumber < 0 {
                end = lengthNumber <= -Double(count) ? 0 : count + Int(lengthNumber)
                if end < from { end = from }
            } else {
                end = lengthNumber >= Double(count) ? count : min(count, from + Int(lengthNumber))
            }
        }
        from = min(from, count)
        end = min(max(end, from), count)
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars[from..<end])
        return String(result)
    }
}

/// Why a rule failed during an evaluation.
struct RuleFailure: Error {
    let code: FlagdErrorCode
    let message: String
    init(code: FlagdErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }
}

extension RuleFailure {
    /// A failure of the general kind.
    static func general(_ message: String) -> RuleFailure { RuleFailure(code: .general, message) }
}
