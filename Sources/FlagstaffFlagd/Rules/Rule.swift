import Flagstaff

/// A JsonLogic rule compiled once when definitions are loaded: each node knows its operator and its operands, so
/// an evaluation walks a tree of these and never looks at JSON member names again.
///
/// Shared rules (`$evaluators` through `$ref`) are compiled once and shared by every flag that refers to them.
indirect enum Rule: Sendable {
    /// A constant: a literal, or an array or object of constants.
    case literal(JSONValue)
    /// An array whose elements are rules, evaluated element by element.
    case array([Rule])
    /// `var` with a constant path: the path's components and a fallback rule.
    case path(VariablePath, fallback: Rule?)
    /// `if` / `?:`: condition, value pairs and an optional last value, evaluated lazily.
    case branch([Rule])
    /// `and`: the first falsy operand's value, else the last one's.
    case and([Rule])
    /// `or`: the first truthy operand's value, else the last one's.
    case or([Rule])
    /// `map`, `filter`, `all`, `some`, `none`: the items, and the rule applied to each item (its scope).
    case iteration(Iteration, items: Rule, body: Rule?)
    /// `reduce`: the items, the rule applied to `{"current", "accumulator"}`, and the initial accumulator (taken
    /// as written, not evaluated).
    case reduce(items: Rule, body: Rule?, initial: JSONValue)
    /// Any other operator: its operands are evaluated first, then the operator is applied to their values.
    case call(Operator, [Rule])
    /// `sem_ver` whose operator and second version are constants: the version is read once, when compiled.
    case semanticVersion(Rule, operation: String, SemanticVersion)

    /// The operators that iterate over an array with a rule.
    enum Iteration: Sendable {
        case map, filter, all, some, none
    }
}

/// A `var` path read once: `user.name` as `["user", "name"]`, with each component's array index when it is one.
struct VariablePath: Sendable {
    /// The components, in order.
    let components: [String]
    /// Each component as an array index (canonical decimal digits), else `nil`.
    let indices: [Int?]
    /// The text of the path as written.
    let text: String

    init(_ text: String) {
        self.text = text
        components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        indices = components.map(VariablePath.index)
    }

    /// A component as an array index: canonical decimal digits (`0`, `12`; not `012`, `+1` or `-1`).
    static func index(_ component: String) -> Int? {
        guard let value = Int(component), value >= 0, String(value) == component else { return nil }
        return value
    }
}

/// The operators whose operands are evaluated before the operator sees them.
enum Operator: String, Sendable, CaseIterable {
    case variable = "var"
    case equal = "=="
    case notEqual = "!="
    case strictEqual = "==="
    case strictNotEqual = "!=="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
    case not = "!"
    case truthy = "!!"
    case add = "+"
    case multiply = "*"
    case subtract = "-"
    case divide = "/"
    case remainder = "%"
    case `in` = "in"
    case min
    case max
    case cat
    case log
    case substr
    case merge
    case missing
    case missingSome = "missing_some"
    case fractional
    case semanticVersion = "sem_ver"
    case startsWith = "starts_with"
    case endsWith = "ends_with"
}
