/// How often an SDK reported evaluating a flag in its metrics.
package struct EvaluationCount: Sendable, Hashable {
    /// Evaluations that answered on (or a value).
    package var yes: Int = 0
    /// Evaluations that answered off.
    package var no: Int = 0
    /// All evaluations (at most `Int.max`).
    package var total: Int { Self.sum(yes, no) }

    /// Adds another count; each figure stops at `Int.max` (counts come from clients, which may send anything).
    package mutating func add(_ other: EvaluationCount) {
        yes = Self.sum(yes, other.yes)
        no = Self.sum(no, other.no)
    }

    /// `a + b` for counts (never negative), `Int.max` when it would not fit.
    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : result
    }

    /// Creates a count.
    package init(yes: Int = 0, no: Int = 0) {
        self.yes = yes
        self.no = no
    }
}
