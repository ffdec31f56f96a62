/// Turns a ``RegexNode`` into a ``RegexProgram``: a Thompson NFA as a list of instructions.
///
/// Counted repetition is expanded into copies, so the program size is bounded: past ``maxInstructions`` the
/// pattern is rejected instead of allocating without limit (RE2 and Rust `regex` have similar size limits).
struct RegexCompiler {
    static let maxInstructions = 100_000
    /// Limit on the ranges held by all class instructions together (8 bytes each).
    static let maxRanges = 1_000_000
    /// Limit on the work of one membership test of a class that keeps Unicode properties
    /// (``ScalarClass/membershipCost``): nested case-insensitive classes multiply it, and every input scalar pays it.
    static let maxMembershipCost = 4096

    private var rangeCount = 0

    private let pattern: String
    private var instructions: [RegexInstruction] = []

    static func compile(_ node: RegexNode, pattern: String) throws(RegexPattern.Rejection) -> RegexProgram {
        var compiler = RegexCompiler(pattern: pattern)
        try compiler.emit(node)
        try compiler.append(.match)
        return RegexProgram(instructions: compiler.instructions, anchoredStart: Self.startsAnchored(node))
    }

    private init(pattern: String) { self.pattern = pattern }

    private static func startsAnchored(_ node: RegexNode) -> Bool {
        switch node {
        case .assertion(.beginText): return true
        case .concat(let items): return items.first.map(startsAnchored) ?? false
        default: return false
        }
    }

    @discardableResult
    private mutating func append(_ instruction: RegexInstruction) throws(RegexPattern.Rejection) -> Int {
        if case .ranges(let ranges) = instruction { rangeCount += ranges.count }
        guard instructions.count < Self.maxInstructions, rangeCount <= Self.maxRanges else {
            throw RegexPattern.Rejection(
                description: "regular expression \(pattern.debugDescription) is too large: it compiles to more than "
                    + "\(Self.maxInstructions) instructions or \(Self.maxRanges) class ranges (counted repetitions multiply)"
            )
        }
        instructions.append(instruction)
        return instructions.count - 1
    }

    private mutating func emit(_ node: RegexNode) throws(RegexPattern.Rejection) {
        switch node {
        case .empty: break
        case .scalar(let value, let caseInsensitive):
            if caseInsensitive, let orbit = RegexCaseFolding.orbit(value) {
                try append(.ranges(ScalarClass.normalized(orbit.map { $0...$0 })))
            } else {
                try append(.scalar(value))
            }
        case .set(let set):
            if let ranges = set.flattened {
                if ranges.count == 1, ranges[0].lowerBound == ranges[0].upperBound {
                    try append(.scalar(ranges[0].lowerBound))
                } else {
                    try append(.ranges(ranges))
                }
            } else {
                guard set.membershipCost <= Self.maxMembershipCost else {
                    throw RegexPattern.Rejection(
                        description: "regular expression \(pattern.debugDescription) has a character class too "
                            + "complex to test (case-insensitive classes nested with Unicode classes multiply the work)"
                    )
                }
                try append(.set(set))
            }
        case .any(let dotAll): try append(dotAll ? .any : .anyButNewline)
        case .assertion(let assertion): try append(.assertion(assertion))
        case .concat(let items):
            for item in items { try emit(item) }
        case .alternation(let branches): try emitAlternation(branches)
        case .repetition(let body, let min, let max): try emitRepetition(body, min: min, max: max)
        }
    }

    /// `split(b1, next); b1; jump end; split(b2, next); b2; jump end; …; bn` without recursion (a pattern may have
    /// thousands of branches).
    private mutating func emitAlternation(_ branches: [RegexNode]) throws(RegexPattern.Rejection) {
        var jumps: [Int] = []
        for (position, branch) in branches.enumerated() {
            if position == branches.count - 1 {
                try emit(branch)
                break
            }
            let split = try append(.split(0, 0))
            try emit(branch)
            jumps.append(try append(.jump(0)))
            instructions[split] = .split(split + 1, instructions.count)
        }
        for jump in jumps { instructions[jump] = .jump(instructions.count) }
    }

    private mutating func emitRepetition(_ body: RegexNode, min: Int, max: Int?) throws(RegexPattern.Rejection) {
        if max == nil && min > 0 {
            // body{min,}: min - 1 copies, then L: body; split(L, out) (one copy loops back, as body+ does).
            for _ in 0..<(min - 1) { try emit(body) }
            let loop = instructions.count
            try emit(body)
            try append(.split(loop, instructions.count + 1))
            return
        }
        for _ in 0..<min { try emit(body) }
        guard let max else {
            // body*: L: split(L+1, out); body; jump L
            let loop = try append(.split(0, 0))
            try emit(body)
            try append(.jump(loop))
            instructions[loop] = .split(loop + 1, instructions.count)
            return
        }
        // (body(body(…)?)?)?: every optional copy may skip to the common end.
        var splits: [Int] = []
        for _ in min..<Swift.max(min, max) {
            splits.append(try append(.split(0, 0)))
            try emit(body)
        }
        let end = instructions.count
        for split in splits { instructions[split] = .split(split + 1, end) }
    }
}
