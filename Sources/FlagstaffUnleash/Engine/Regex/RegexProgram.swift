/// One step of a compiled pattern.
enum RegexInstruction: Sendable {
    /// Consumes this scalar.
    case scalar(UInt32)
    /// Consumes a scalar in these sorted ranges.
    case ranges([ClosedRange<UInt32>])
    /// Consumes a scalar in a class that involves Unicode properties.
    case set(ScalarClass)
    case any
    case anyButNewline
    /// Continues at both targets.
    case split(Int, Int)
    case jump(Int)
    case assertion(RegexAssertion)
    case match
}

/// A compiled pattern, searched with a Pike VM (a Thompson NFA simulation): the set of live states advances one
/// input scalar at a time and each state is visited at most once per position, so a search takes
/// O(instructions × input scalars) time whatever the pattern, with no backtracking.
///
/// The instructions are stored flat (an opcode and two operands, ranges in one array of bounds) so the search loop
/// does no reference counting.
package struct RegexProgram: Sendable {
    private struct Operation {
        enum Code: UInt8 { case scalar, ranges, set, any, anyButNewline, split, jump, assertion, match }
        let code: Code
        let first: Int32
        let second: Int32
    }

    private let operations: [Operation]
    /// Low and high bounds of the ranges of `.ranges` operations, in pairs.
    private let bounds: [UInt32]
    private let sets: [ScalarClass]
    /// Starts with `\A` (or `^` outside multi-line mode): only the search from the first position can match.
    private let anchoredStart: Bool

    init(instructions: [RegexInstruction], anchoredStart: Bool) {
        var operations: [Operation] = []
        var bounds: [UInt32] = []
        var sets: [ScalarClass] = []
        operations.reserveCapacity(instructions.count)
        for instruction in instructions {
            switch instruction {
            case .scalar(let value):
                operations.append(Operation(code: .scalar, first: Int32(bitPattern: value), second: 0))
            case .ranges(let ranges):
                operations.append(Operation(code: .ranges, first: Int32(bounds.count), second: Int32(ranges.count)))
                for range in ranges { bounds += [range.lowerBound, range.upperBound] }
            case .set(let set):
                operations.append(Operation(code: .set, first: Int32(sets.count), second: 0))
                sets.append(set)
            case .any: operations.append(Operation(code: .any, first: 0, second: 0))
            case .anyButNewline: operations.append(Operation(code: .anyButNewline, first: 0, second: 0))
            case .split(let first, let second):
                operations.append(Operation(code: .split, first: Int32(first), second: Int32(second)))
            case .jump(let target): operations.append(Operation(code: .jump, first: Int32(target), second: 0))
            case .assertion(let assertion):
                operations.append(Operation(code: .assertion, first: Int32(assertion.rawValue), second: 0))
            case .match: operations.append(Operation(code: .match, first: 0, second: 0))
            }
        }
        self.operations = operations
        self.bounds = bounds
        self.sets = sets
        self.anchoredStart = anchoredStart
    }

    /// Number of instructions.
    package var count: Int { operations.count }

    /// Whether the pattern matches anywhere in `text` (unanchored search over Unicode scalars).
    package func matches(_ text: String) -> Bool {
        let count = operations.count
        // One allocation: two thread lists (dense, sparse and runnable thirds) and the closure stack.
        var storage = [Int32](repeating: 0, count: count * 8 + 2)
        return storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var current = ThreadList(dense: base, sparse: base + count, runnable: base + 2 * count)
            var next = ThreadList(dense: base + 3 * count, sparse: base + 4 * count, runnable: base + 5 * count)
            let stack = base + 6 * count
            return operations.withUnsafeBufferPointer { program in
                bounds.withUnsafeBufferPointer { bounds in
                    var iterator = text.unicodeScalars.makeIterator()
                    var previous: UInt32?
                    var scalar = iterator.next()?.value
                    while true {
                        if !anchoredStart || previous == nil {
                            if Self.addThread(0, to: &current, program, stack, previous: previous, next: scalar) {
                                return true
                            }
                        }
                        guard let consumed = scalar, current.runnableCount > 0 || !anchoredStart else { return false }
                        let following = iterator.next()?.value
                        next.clear()
                        for slot in 0..<current.runnableCount {
                            let pc = Int(current.runnable[slot])
                            guard consumes(program[pc], consumed, bounds) else { continue }
                            if Self.addThread(pc + 1, to: &next, program, stack, previous: consumed, next: following) {
                                return true
                            }
                        }
                        swap(&current, &next)
                        previous = consumed
                        scalar = following
                    }
                }
            }
        }
    }

    @inline(__always)
    private func consumes(_ operation: Operation, _ value: UInt32, _ bounds: UnsafeBufferPointer<UInt32>) -> Bool {
        switch operation.code {
        case .scalar: return value == UInt32(bitPattern: operation.first)
        case .ranges:
            // Binary search over the pairs [first, first + 2 * second).
            var low = 0
            var high = Int(operation.second)
            let base = Int(operation.first)
            while low < high {
                let middle = (low + high) / 2
                if bounds[base + 2 * middle + 1] < value {
                    low = middle + 1
                } else if bounds[base + 2 * middle] > value {
                    high = middle
                } else {
                    return true
                }
            }
            return false
        case .set: return sets[Int(operation.first)].contains(value)
        case .any: return true
        case .anyButNewline: return value != 0x0A
        case .split, .jump, .assertion, .match: return false
        }
    }

    /// Adds `start` and everything reachable from it without consuming input; `true` when that reaches `match`.
    private static func addThread(
        _ start: Int, to set: inout ThreadList, _ program: UnsafeBufferPointer<Operation>,
        _ stack: UnsafeMutablePointer<Int32>, previous: UInt32?, next: UInt32?
    ) -> Bool {
        stack[0] = Int32(start)
        var depth = 1
        while depth > 0 {
            depth -= 1
            let pc = Int(stack[depth])
            guard set.insert(pc) else { continue }
            let operation = program[pc]
            switch operation.code {
            case .match: return true
            case .jump:
                stack[depth] = operation.first
                depth += 1
            case .split:
                stack[depth] = operation.second
                stack[depth + 1] = operation.first
                depth += 2
            case .assertion:
                let holds =
                    RegexAssertion(rawValue: UInt8(truncatingIfNeeded: operation.first))?
                    .holds(previous: previous, next: next) ?? false
                if holds {
                    stack[depth] = Int32(pc + 1)
                    depth += 1
                }
            case .scalar, .ranges, .set, .any, .anyButNewline: set.addRunnable(pc)
            }
        }
        return false
    }
}

/// The states of one position: a set of instruction indexes with O(1) insert, membership and clear (Briggs and
/// Torczon's sparse set), and the consuming ones among them in the order they were reached.
private struct ThreadList {
    let dense: UnsafeMutablePointer<Int32>
    let sparse: UnsafeMutablePointer<Int32>
    let runnable: UnsafeMutablePointer<Int32>
    var size = 0
    var runnableCount = 0

    init(dense: UnsafeMutablePointer<Int32>, sparse: UnsafeMutablePointer<Int32>, runnable: UnsafeMutablePointer<Int32>)
    {
        self.dense = dense
        self.sparse = sparse
        self.runnable = runnable
    }

    @inline(__always)
    mutating func clear() {
        size = 0
        runnableCount = 0
    }

    /// Inserts `value`; `false` when it was already there.
    @inline(__always)
    mutating func insert(_ value: Int) -> Bool {
        let slot = Int(sparse[value])
        if slot < size && Int(dense[slot]) == value { return false }
        sparse[value] = Int32(size)
        dense[size] = Int32(value)
        size += 1
        return true
    }

    @inline(__always)
    mutating func addRunnable(_ value: Int) {
        runnable[runnableCount] = Int32(value)
        runnableCount += 1
    }
}
