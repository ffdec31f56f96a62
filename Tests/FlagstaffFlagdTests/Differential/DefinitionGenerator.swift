import Flagstaff
import FlagstaffFlagd
import Foundation

/// Generates flagd definitions documents, evaluation contexts and queries from a fixed seed, for the differential
/// tests against the reference evaluator.
///
/// Every JsonLogic operator flagd uses appears, nested, with operands of every JSON type (odd ones included: empty
/// strings and arrays, numeric text, negative and fractional numbers, combining marks, emoji, right-to-left text).
/// A few corners where the reference's Python shows through are never generated (each is in docs/flagd.md):
/// comparing an array or object with itself by `==` (Python compares them by identity), numbers written with a
/// fraction in integer flags or weights (`2.0`: Python keeps them floats), numbers over 10⁹, a variant named by a
/// computed number, `$flagd.timestamp` compared for equality (the two evaluators read their clocks at different
/// moments), operators that read the context inside `map`/`filter`/`reduce`/`all`/`some`/`none`, and `$evaluators`
/// that refer to each other or have names beyond ASCII (the reference finds `$ref`s with a regular expression over
/// its own ASCII-escaped JSON).
struct DefinitionGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    // MARK: Randomness (SplitMix64: the same on every platform)

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    // MARK: Values

    static let words = [
        "", "a", "abc", "US", "CA", "de", "premium", "free", "beta", "user@example.com", "ballmer@macrosoft.com",
        "12", " 12 ", "1e3", "-4.5", "0", "true", "null", "1.2.3", "v2.0.0", "1.0.0-rc.1", "2.1", "3.0.0+build.7",
        "café", "e\u{301}", "日本語", "😀", "שלום", "a.b", "tags", "x,y", "[object Object]", "NaN",
    ]
    static let attributes = ["email", "country", "age", "version", "tier", "tags", "score", "nested", "flag", "name"]

    /// A scalar; booleans only when `booleans` (see ``value(depth:)``).
    mutating func scalar(booleans: Bool = true) -> JSONSettingValue {
        switch below(7) {
        case 0: return .null
        case 1: return booleans ? .bool(chance(50)) : .string(pick(Self.words))
        case 2: return .number(Double(below(41) - 20))
        case 3: return .number(pick([0.5, -2.5, 1.25, 3.75, 0.1, 1e-3, 100.5, -0.25]))
        default: return .string(pick(Self.words))
        }
    }

    /// A value; arrays and objects never hold booleans, and a top-level boolean only when `booleans`: the
    /// reference's Python writes `true` as `True` when it turns a value into text (`cat`, comparing text with an
    /// array), where JsonLogic and flagd write `true` (see the notes).
    mutating func value(depth: Int = 0, booleans: Bool = false) -> JSONSettingValue {
        guard depth < 2, chance(25) else { return scalar(booleans: booleans && depth == 0) }
        if chance(60) {
            return .array((0..<below(4)).map { _ in value(depth: depth + 1) })
        }
        // Empty or with two members: an object with one member is an operation in a rule.
        guard chance(70) else { return .object([:]) }
        let names = pick([("a", "b"), ("name", "é"), ("", "level")])
        return .object([names.0: value(depth: depth + 1), names.1: value(depth: depth + 1)])
    }

    mutating func context() -> [String: JSONSettingValue] {
        var context: [String: JSONSettingValue] = [:]
        switch below(10) {
        case 0: break
        case 1: context["targetingKey"] = .string("")
        case 2: context["targetingKey"] = .number(42)
        default:
            context["targetingKey"] = .string(
                pick(["user-1", "user-2", "jon@company.com", "ünï", "😀-7", "k"]) + String(below(50)))
        }
        for name in Self.attributes where chance(70) {
            switch name {
            case "email": context[name] = .string(pick(["ballmer@macrosoft.com", "user@example.com", "x@y.org", ""]))
            case "country": context[name] = .string(pick(["US", "CA", "de", "日本", ""]))
            case "age": context[name] = chance(80) ? .number(Double(below(90))) : .string(String(below(90)))
            case "version": context[name] = pick([.string(pick(Self.words)), .number(pick([1, 2, 1.5, 3]))])
            case "tags": context[name] = .array((0..<below(4)).map { _ in .string(pick(["a", "b", "beta", "é"])) })
            case "nested":
                context[name] = .object(["name": .string(pick(Self.words)), "level": .number(Double(below(5)))])
            case "flag": context[name] = .bool(chance(50))
            default: context[name] = value()
            }
        }
        return context
    }

    // MARK: Rules

    /// A `var`; `textSafe` leaves out the one attribute that holds a boolean.
    private mutating func variable(textSafe: Bool = false) -> JSONSettingValue {
        let path = pick(
            Self.attributes.filter { !textSafe || $0 != "flag" } + [
                "nested.name", "nested.level", "tags.0", "tags.length", "name.0", "targetingKey", "missing",
                "$flagd.flagKey", "email.length",
            ])
        return chance(30)
            ? .object(["var": .array([.string(path), scalar(booleans: !textSafe)])]) : .object(["var": .string(path)])
    }

    /// An operand that may be turned into text: never a boolean, nor a rule that gives one.
    mutating func textOperand(_ depth: Int) -> JSONSettingValue {
        switch below(depth > 2 ? 2 : 3) {
        case 0: return value()
        case 1: return variable(textSafe: true)
        default: return arithmetic(depth + 1)
        }
    }

    /// An operand: a constant, a variable, or (deeper) an operation.
    mutating func operand(_ depth: Int) -> JSONSettingValue {
        switch below(depth > 2 ? 2 : 4) {
        case 0: return value()
        case 1: return variable()
        case 2: return condition(depth + 1)
        default: return arithmetic(depth + 1)
        }
    }

    mutating func arithmetic(_ depth: Int) -> JSONSettingValue {
        let operation = pick(["+", "-", "*", "/", "%", "min", "max", "cat", "substr", "merge", "if"])
        // `substr` takes a start, `if` a condition and a value (alone, the condition's truth value would be the
        // result).
        let count = operation == "substr" || operation == "if" ? 2 + below(2) : 1 + below(3)
        var operands = (0..<count).map { _ in textOperand(depth) }
        if operation == "if" { operands[0] = condition(depth + 1) }
        if operation == "/" || operation == "%", operands.count > 1, chance(80) {
            operands[1] = .number(Double(pick([2, 3, -3, 7])))
        }
        return .object([operation: .array(operands)])
    }

    /// A rule that gives a truth value (most of the time).
    mutating func condition(_ depth: Int) -> JSONSettingValue {
        if depth > 4 { return .object(["==": .array([variable(), scalar()])]) }
        let operation = pick([
            "==", "!=", "===", "!==", "<", ">", "<=", ">=", "<3", "!", "!!", "and", "or", "in", "in-text",
            "starts_with", "ends_with", "sem_ver", "missing", "missing_some", "some", "all", "none", "filter", "map",
            "reduce", "var", "if",
        ])
        switch operation {
        case "==", "!=", "===", "!==", "<", ">", "<=", ">=":
            // Never the same path on both sides (see the type's notes).
            // `==` and `!=` compare arrays and objects by identity in the reference: the right side is never
            // something that could be the very value the left side reads.
            let ordering = !(operation.hasPrefix("=") || operation.hasPrefix("!"))
            let left = variable(textSafe: ordering)
            let right = ordering ? textOperand(depth) : value(booleans: true)
            return .object([operation: .array(chance(80) ? [left, right] : [right, left])])
        case "<3":
            return .object([
                pick(["<", "<="]): .array([textOperand(depth), variable(textSafe: true), textOperand(depth)])
            ])
        case "!", "!!": return .object([operation: .array([operand(depth)])])
        case "and", "or": return .object([operation: .array((0..<(1 + below(3))).map { _ in condition(depth + 1) })])
        case "in":
            return .object([
                "in": .array([operand(depth), .array((0..<below(4)).map { _ in scalar(booleans: false) })])
            ])
        case "in-text":
            return .object(["in": .array([.string(pick(Self.words)), variable(textSafe: true)])])
        case "starts_with", "ends_with":
            let operands = chance(90) ? [variable(), .string(pick(Self.words))] : [variable()]
            return .object([operation: .array(operands)])
        case "sem_ver":
            let version = JSONSettingValue.string(pick(["1.0.0", "2.0.0", "v1.5", "1", "2.1.0-rc.1", "1.0.0+b", "x"]))
            let comparison = JSONSettingValue.string(pick(["=", "!=", "<", "<=", ">", ">=", "^", "~", "=="]))
            return .object(["sem_ver": .array(chance(90) ? [variable(), comparison, version] : [variable(), version])])
        case "missing":
            return .object(["missing": .array((0..<(1 + below(3))).map { _ in .string(pick(Self.attributes)) })])
        case "missing_some":
            return .object([
                "missing_some": .array([
                    .number(Double(below(3))), .array((0..<(1 + below(3))).map { _ in .string(pick(Self.attributes)) }),
                ])
            ])
        case "some", "all", "none", "filter", "map":
            let items: JSONSettingValue = chance(70) ? .object(["var": .string("tags")]) : value(depth: 1)
            let body: JSONSettingValue = .object([
                pick(["==", "!=", "in"]): .array([.object(["var": .string("")]), .string(pick(["a", "beta", "é"]))])
            ])
            return .object([operation: .array([items, body])])
        case "reduce":
            let body: JSONSettingValue = .object([
                "+": .array([.object(["var": .string("accumulator")]), .object(["var": .string("current.length")])])
            ])
            return .object([
                ">": .array([
                    .object(["reduce": .array([.object(["var": .string("tags")]), body, .number(0)])]), .number(2),
                ])
            ])
        case "var":
            return variable()
        default:
            return .object(["if": .array([condition(depth + 1), condition(depth + 1), condition(depth + 1)])])
        }
    }

    /// A flag's targeting: an `if` chain, a `fractional`, or both, ending in variant names (sometimes a missing
    /// one, `null`, or a shared rule).
    mutating func targeting(variants: [String], evaluators: [String]) -> JSONSettingValue {
        func result(_ generator: inout DefinitionGenerator) -> JSONSettingValue {
            switch generator.below(12) {
            case 0: return .null
            case 1: return .string("no-such-variant")
            default: return .string(generator.pick(variants))
            }
        }
        func test(_ generator: inout DefinitionGenerator) -> JSONSettingValue {
            if !evaluators.isEmpty, generator.chance(20) {
                return .object(["$ref": .string(generator.pick(evaluators))])
            }
            return generator.condition(0)
        }
        switch below(10) {
        case 0, 1, 2:
            return fractional(variants: variants)
        case 3:
            return .object(["if": .array([test(&self), fractional(variants: variants), result(&self)])])
        default:
            var operands: [JSONSettingValue] = []
            for _ in 0..<(1 + below(3)) {
                operands.append(test(&self))
                operands.append(result(&self))
            }
            if chance(70) { operands.append(result(&self)) }
            return .object([pick(["if", "?:"]): .array(operands)])
        }
    }

    mutating func fractional(variants: [String]) -> JSONSettingValue {
        var operands: [JSONSettingValue] = []
        switch below(6) {
        case 0: break  // shorthand
        case 1:
            let part = variable(textSafe: true)
            operands.append(.object(["cat": .array([.object(["var": .string("$flagd.flagKey")]), part])]))
        case 2: operands.append(.string(pick(Self.words)))
        case 3: operands.append(value())  // any type (version 3 hashes it; version 2 reads it as an entry)
        default: operands.append(variable())
        }
        for _ in 0..<(1 + below(4)) {
            var entry: [JSONSettingValue] = [chance(92) ? .string(pick(variants)) : scalar()]
            switch below(10) {
            case 0: break  // weight 1
            case 1: entry.append(.number(Double(-below(5))))
            case 2: entry.append(.number(0))
            case 3: entry.append(.object(["if": .array([condition(3), .number(100), .number(0)])]))
            case 4: entry.append(.string("50"))
            default: entry.append(.number(Double(1 + below(100))))
            }
            operands.append(.array(entry))
        }
        if chance(3) { operands.append(.array([])) }
        return .object(["fractional": .array(operands)])
    }

    // MARK: Documents

    enum Kind: String, CaseIterable {
        case boolean, string, integer, float, object
    }

    /// One flag: its kind and JSON.
    mutating func flag(kind: Kind, evaluators: [String]) -> JSONSettingValue {
        var variants: [String: JSONSettingValue] = [:]
        switch kind {
        case .boolean:
            if chance(50) {
                variants = ["true": .bool(true), "false": .bool(false)]
            } else {
                variants = ["on": .bool(true), "off": .bool(false)]
            }
        case .string:
            for name in ["a", "b", "c", "é", "😀"].prefix(2 + below(4)) { variants[name] = .string(pick(Self.words)) }
        case .integer:
            for name in ["one", "two", "three", "1", "2"].prefix(2 + below(4)) {
                variants[name] = .number(Double(below(2001) - 1000))
            }
        case .float:
            for name in ["low", "high", "mid"].prefix(2 + below(2)) {
                variants[name] = .number(pick([0.5, -1.25, 3, 0, 99.75]))
            }
        case .object:
            for name in ["x", "y", "z"].prefix(2 + below(2)) {
                variants[name] =
                    chance(80)
                    ? .object(["n": .number(Double(below(10))), "s": .string(pick(Self.words))])
                    : .array([.number(1), .string("two")])
            }
        }
        let names = variants.keys.sorted()
        var flag: [String: JSONSettingValue] = [
            "state": .string(chance(90) ? "ENABLED" : "DISABLED"), "variants": .object(variants),
        ]
        switch below(12) {
        case 0: break
        case 1: flag["defaultVariant"] = .null
        case 2: flag["defaultVariant"] = .string("missing-variant")
        default: flag["defaultVariant"] = .string(pick(names))
        }
        if chance(75) {
            flag["targeting"] = targeting(variants: names, evaluators: evaluators)
        } else if chance(10) {
            flag["targeting"] = .object([:])
        }
        if chance(30) {
            flag["metadata"] = .object(["owner": .string(pick(Self.words)), "version": .number(Double(below(9)))])
        }
        return .object(flag)
    }

    /// A definitions document: its flags' keys and kinds, and its JSON.
    mutating func document(flagCount: Int) -> (flags: [(key: String, kind: Kind)], json: JSONSettingValue) {
        var evaluators: [String: JSONSettingValue] = [:]
        for index in 0..<below(3) { evaluators["shared_\(index)"] = sharedRule() }
        let names = evaluators.keys.sorted()
        var flags: [String: JSONSettingValue] = [:]
        var list: [(key: String, kind: Kind)] = []
        for index in 0..<flagCount {
            let kind = pick(Kind.allCases)
            let key = "\(kind.rawValue)-\(index)" + (chance(10) ? "-ü" : "")
            flags[key] = flag(kind: kind, evaluators: names)
            list.append((key, kind))
        }
        var document: [String: JSONSettingValue] = ["flags": .object(flags)]
        if !evaluators.isEmpty { document["$evaluators"] = .object(evaluators) }
        if chance(50) { document["metadata"] = .object(["flagSet": .string("generated"), "owner": .string("set")]) }
        return (list, .object(document))
    }

    /// A shared rule whose JSON text is printable ASCII without backslashes: the reference puts `$evaluators` in
    /// place with `re.sub`, which reads the backslash escapes of JSON's `\u00e9` as its own and fails
    /// ("bad escape \u"), so any other shared rule makes it refuse the whole document.
    mutating func sharedRule() -> JSONSettingValue {
        for _ in 0..<100 {
            let rule = condition(1)
            let text = rule.overrideValue.json
            if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) { return rule }
        }
        return .object(["==": .array([.object(["var": .string("email")]), .string("user@example.com")])])
    }

    /// The type a query asks for: usually the flag's own, sometimes another or any.
    mutating func askedType(for kind: Kind) -> String {
        switch below(10) {
        case 0: return "any"
        case 1:
            // Never a boolean flag as a float: the reference's Python counts `true` as a number (see the notes).
            let type = pick(Kind.allCases)
            return kind == .boolean && type == .float ? "integer" : type.rawValue
        default: return kind.rawValue
        }
    }

    /// A default value of the asked type.
    mutating func defaultValue(_ type: String) -> JSONSettingValue {
        switch type {
        case "boolean": return .bool(chance(50))
        case "string": return .string("fallback")
        case "integer": return .number(-1)
        case "float": return .number(-1.5)
        case "object": return .object(["fallback": .bool(true)])
        default: return .null
        }
    }
}

extension FlagdValueType {
    /// The type named as the reference script names it.
    init(referenceName: String) {
        switch referenceName {
        case "boolean": self = .boolean
        case "string": self = .string
        case "integer": self = .integer
        case "float": self = .float
        case "object": self = .object
        default: self = .any
        }
    }
}
