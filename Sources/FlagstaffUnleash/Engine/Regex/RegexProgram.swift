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
struct RegexProgram: Sendable {
    let instructions: [RegexInstruction]
    /// Starts with `\A` (or `^` outside multi-line mode): only the search from the first position can match.
    let anchoredStart: Bool

    /// Whether the pattern matches anywhere in `text` (unanchored search over Unicode scalars).
    func matches(_ text: String) -> Bool {
        let count = instructions.count
        // One allocation: two sparse sets (dense + sparse halves) and the closure stack.
        var storage = [Int32](repeating: 0, count: count * 6 + 2)
        return storage.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var current = SparseSet(dense: base, sparse: base + count, size: 0)
            var next = SparseSet(dense: base + 2 * count, sparse: base + 3 * count, size: 0)
            let stack = base + 4 * count
            return instructions.withUnsafeBufferPointer { program in
                var iterator = text.unicodeScalars.makeIterator()
                var previous: UInt32?
                var scalar = iterator.next()?.value
                while true {
                    if !anchoredStart || previous == nil {
                        if Self.addThread(0, to: &current, program, stack, previous: previous, next: scalar) { return true }
                    }
                    guard let consumed = scalar, current.size > 0 || !anchoredStart else { return false }
                    let following = iterator.next()?.value
                    next.size = 0
                    for slot in 0..<current.size {
                        let pc = Int(current.dense[slot])
                        guard Self.consumes(program[pc], consumed) else { continue }
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

    @inline(__always)
    private static func consumes(_ instruction: RegexInstruction, _ value: UInt32) -> Bool {
        switch instruction {
        case .scalar(let expected): return value == expected
        case .ranges(let ranges): return ScalarClass.rangesContain(ranges, value)
        case .set(let set): return set.contains(value)
        case .any: return true
        case .anyButNewline: return value != 0x0A
        case .split, .jump, .assertion, .match: return false
        }
    }

    /// Adds `start` and everything reachable from it without consuming input; `true` when that reaches `match`.
    private static func addThread(
        _ start: Int, to set: inout SparseSet, _ program: UnsafeBufferPointer<RegexInstruction>,
        _ stack: UnsafeMutablePointer<Int32>, previous: UInt32?, next: UInt32?
    ) -> Bool {
        var depth = 0
        stack[0] = Int32(start)
        depth = 1
        while depth > 0 {
            depth -= 1
            let pc = Int(stack[depth])
            guard set.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target):
                stack[depth] = Int32(target)
                depth += 1
            case .split(let first, let second):
                stack[depth] = Int32(second)
                stack[depth + 1] = Int32(first)
                depth += 2
            case .assertion(let assertion):
                if assertion.holds(previous: previous, next: next) {
                    stack[depth] = Int32(pc + 1)
                    depth += 1
                }
            case .scalar, .ranges, .set, .any, .anyButNewline: break
            }
        }
        return false
    }
}

/// A set of instruction indexes with O(1) insert, membership and clear (Briggs and Torczon's sparse set).
private struct SparseSet {
    let dense: UnsafeMutablePointer<Int32>
    let sparse: UnsafeMutablePointer<Int32>
    var size: Int

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
}
