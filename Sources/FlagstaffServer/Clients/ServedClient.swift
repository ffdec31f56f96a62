import Foundation

/// An SDK seen by the server: named by the `appName` of its register or metrics calls, else by its
/// `UNLEASH-APPNAME` header, else by its user agent.
package struct ServedClient: Sendable, Hashable {
    /// The application's name (or user agent).
    package var name: String
    /// The SDK, if it said (`sdkVersion` of a register call, the `unleash-sdk` header or the user agent).
    package var sdk: String?
    /// When the server first heard from it.
    package var firstSeen: Date
    /// When the server last heard from it.
    package var lastSeen: Date
    /// Requests of any kind.
    package var requests: Int
    /// `register` calls.
    package var registrations: Int
    /// `metrics` calls.
    package var metricsReports: Int
}

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
