import Flagstaff

/// Compiles a flag's targeting (and the shared `$evaluators` it refers to) into ``Rule`` trees, within limits on
/// depth and size so that hostile definitions fail with a message instead of exhausting the stack or memory.
///
/// Problems are ``RuleProblem``s naming the JSON path (`$.flags.beta.targeting.if[0].in[1]`); the flag is loaded
/// and its evaluations fail with `PARSE_ERROR` and that message, as flagd reports a targeting it cannot use.
struct RuleCompiler {
    /// The deepest nesting of rules (after `$ref`s are put in place).
    static let maximumDepth = 100
    /// The most nodes one flag's targeting may have (a node shared through `$ref` counts once per use).
    static let maximumNodes = 1_000_000

    /// The shared rules, by name, as written.
    let evaluators: [String: JSONValue]
    /// Shared rules already compiled, with their depth and node count.
    private var compiled: [String: (rule: Rule, depth: Int, nodes: Int)] = [:]
    /// The shared rules being compiled (to report a cycle).
    private var inProgress: [String] = []
    /// Nodes counted for the flag being compiled.
    private var nodes = 0
    /// Where the compiler is, outermost first; written out only for a message.
    private var location: [PathComponent] = []

    private enum PathComponent {
        case text(String)
        case member(String)
        case index(Int)
    }

    init(evaluators: [String: JSONValue]) {
        self.evaluators = evaluators
    }

    /// Compiles one flag's targeting.
    /// - Parameters:
    ///   - targeting: the rule as written.
    ///   - path: the JSON path of the targeting (for messages).
    mutating func compile(_ targeting: JSONValue, at path: String) throws(RuleProblem) -> Rule {
        nodes = 0
        location = [.text(path)]
        return try rule(targeting, depth: 0)
    }

    /// The JSON path of the node being compiled.
    private var path: String {
        location.reduce(into: "") { text, component in
            switch component {
            case .text(let written): text += written
            case .member(let name): text += Self.member(name)
            case .index(let index): text += "[\(index)]"
            }
        }
    }

    private mutating func count(_ amount: Int = 1) throws(RuleProblem) {
        nodes += amount
        if nodes > Self.maximumNodes {
            throw RuleProblem("\(path): the targeting has more than \(Self.maximumNodes) nodes")
        }
    }

    /// Compiles `value` one step further down the path.
    private mutating func rule(_ value: JSONValue, at component: PathComponent, depth: Int) throws(RuleProblem)
        -> Rule
    {
        location.append(component)
        let compiled = try rule(value, depth: depth)
        location.removeLast()
        return compiled
    }

    private mutating func rule(_ value: JSONValue, depth: Int) throws(RuleProblem) -> Rule {
        if depth > Self.maximumDepth {
            throw RuleProblem("\(path): rules nested deeper than \(Self.maximumDepth) levels")
        }
        try count()
        switch value {
        case .array(let elements):
            var rules: [Rule] = []
            rules.reserveCapacity(elements.count)
            var constant = true
            for (index, element) in elements.enumerated() {
                let compiled = try rule(element, at: .index(index), depth: depth + 1)
                if case .literal = compiled {} else { constant = false }
                rules.append(compiled)
            }
            return constant ? .literal(value) : .array(rules)
        case .object(let members) where members.count == 1:
            let (name, operand) = members.first!
            location.append(.member(name))
            let compiled = try operation(name, operand, depth: depth)
            location.removeLast()
            return compiled
        default:
            // Scalars, and objects with other than one member, are values.
            return .literal(value)
        }
    }

    private mutating func operation(_ name: String, _ operand: JSONValue, depth: Int) throws(RuleProblem) -> Rule {
        if name == "$ref" { return try reference(operand, depth: depth) }
        // A single operand may be written without its array.
        let written: [JSONValue] = if case .array(let elements) = operand { elements } else { [operand] }
        var operands: [Rule] = []
        operands.reserveCapacity(written.count)
        for (index, element) in written.enumerated() {
            operands.append(try rule(element, at: .index(index), depth: depth + 1))
        }
        switch name {
        case "if", "?:": return .branch(operands)
        case "and": return .and(operands)
        case "or": return .or(operands)
        case "map": return iteration(.map, operands)
        case "filter": return iteration(.filter, operands)
        case "all": return iteration(.all, operands)
        case "some": return iteration(.some, operands)
        case "none": return iteration(.none, operands)
        case "reduce":
            return .reduce(
                items: operands.first ?? .literal(.null), body: operands.count > 1 ? operands[1] : nil,
                initial: written.count > 2 ? written[2] : .null)
        case "sem_ver":
            if operands.count == 3, case .literal(.string(let operation)) = operands[1],
                case .literal(let written) = operands[2], let version = SemanticVersion(written)
            {
                return .semanticVersion(operands[0], operation: operation, version)
            }
            return .call(.semanticVersion, operands)
        case "var":
            if case .literal(.string(let text))? = operands.first, !text.isEmpty {
                return .path(VariablePath(text), fallback: operands.count > 1 ? operands[1] : nil)
            }
            return .call(.variable, operands)
        default:
            guard let known = Operator(rawValue: name) else {
                throw RuleProblem("\(path): unknown operator \(JSONText.quoted(name))")
            }
            return .call(known, operands)
        }
    }

    private func iteration(_ kind: Rule.Iteration, _ operands: [Rule]) -> Rule {
        .iteration(kind, items: operands.first ?? .literal(.null), body: operands.count > 1 ? operands[1] : nil)
    }

    /// `{"$ref": "name"}`: the shared rule, compiled once.
    private mutating func reference(_ operand: JSONValue, depth: Int) throws(RuleProblem) -> Rule {
        guard case .string(let name) = operand else {
            throw RuleProblem("\(path): $ref must name a shared rule with a string")
        }
        if let done = compiled[exactly: name] {
            if depth + done.depth > Self.maximumDepth {
                throw RuleProblem("\(path): rules nested deeper than \(Self.maximumDepth) levels")
            }
            try count(done.nodes)
            return done.rule
        }
        guard let shared = evaluators[exactly: name] else {
            throw RuleProblem("\(path): $ref names \(JSONText.quoted(name)), which $evaluators does not define")
        }
        if inProgress.contains(name) {
            let cycle = (inProgress + [name]).map { JSONText.quoted($0) }.joined(separator: " → ")
            throw RuleProblem("\(path): $evaluators refer to each other in a cycle: \(cycle)")
        }
        // Compiled on its own (depth and nodes from 0), then placed: its depth and size are known once.
        let outerNodes = nodes
        let outerLocation = location
        nodes = 0
        location = [.text("$.$evaluators"), .member(name)]
        inProgress.append(name)
        let rule: Rule
        do throws(RuleProblem) {
            rule = try self.rule(shared, depth: 0)
        } catch {
            inProgress.removeLast()
            throw error
        }
        inProgress.removeLast()
        location = outerLocation
        let size = nodes
        let height = Self.depth(of: rule)
        compiled[name] = (rule, height, size)
        nodes = outerNodes
        if depth + height > Self.maximumDepth {
            throw RuleProblem("\(path): rules nested deeper than \(Self.maximumDepth) levels")
        }
        try count(size)
        return rule
    }

    /// How deep a compiled rule is.
    static func depth(of rule: Rule) -> Int {
        switch rule {
        case .literal: return 1
        case .array(let rules), .branch(let rules), .and(let rules), .or(let rules), .call(_, let rules):
            return 1 + (rules.map(depth(of:)).max() ?? 0)
        case .path(_, let fallback): return 1 + (fallback.map(depth(of:)) ?? 0)
        case .semanticVersion(let rule, _, _): return 1 + depth(of: rule)
        case .iteration(_, let items, let body), .reduce(let items, let body, _):
            return 1 + max(depth(of: items), body.map(depth(of:)) ?? 0)
        }
    }

    /// A member name as a path component: plain names as `.name`, others as `["name"]`.
    static func member(_ name: String) -> String {
        let plain =
            !name.isEmpty
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "_-$".unicodeScalars
                            .contains(scalar))
            }
        return plain ? "." + name : "[" + JSONText.quoted(name) + "]"
    }
}

/// Why a targeting cannot be compiled: the message names the JSON path.
struct RuleProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
