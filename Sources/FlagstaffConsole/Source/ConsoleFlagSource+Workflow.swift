import Flagstaff
import Foundation

/// An override the store doctor finds stale: listed by the console's `Stale` scope.
package struct StaleOverride: Sendable, Equatable {
    /// Why it is stale.
    package enum Kind: String, Sendable, Equatable {
        /// For a key the registry does not declare (shown by key, greyed; `r` removes it).
        case orphan
        /// Equal to the value the flag has anyway.
        case noOp = "no-op"
        /// Its expiry has passed: applied by no one, removed at the next write.
        case expired
    }

    /// The store key.
    package var key: String
    /// Why it is stale.
    package var kind: Kind
    /// The stored value.
    package var value: OverrideValue?
    /// The doctor's sentence about it.
    package var message: String
    /// The flag's ordinal (``ConsoleFlagSource/ordinal(forKey:)``), or `nil` for an orphan.
    package var ordinal: Int?

    /// Creates an entry.
    package init(key: String, kind: Kind, value: OverrideValue?, message: String, ordinal: Int? = nil) {
        self.key = key
        self.kind = kind
        self.value = value
        self.message = message
        self.ordinal = ordinal
    }
}

/// What the console shows of an active bisect session on the store.
package struct BisectBanner: Sendable, Equatable {
    /// The step (1 for the first answer asked for).
    package var step: Int
    /// The keys applied in this step (the culprit once done).
    package var testing: [String]
    /// How many candidates remain.
    package var remaining: Int
    /// The culprit, once found.
    package var culprit: String?
    /// At most how many answers are still needed.
    package var answersLeft: Int

    /// Creates a banner.
    package init(step: Int, testing: [String], remaining: Int, culprit: String?, answersLeft: Int) {
        self.step = step
        self.testing = testing
        self.remaining = remaining
        self.culprit = culprit
        self.answersLeft = answersLeft
    }

    /// The banner of a session.
    package init(_ session: BisectSession) {
        self.init(
            step: session.step, testing: session.testing, remaining: session.remaining.count,
            culprit: session.culprit, answersLeft: session.answersLeft)
    }
}

extension ConsoleFlagSource {
    /// The current date and time expiry is measured against (the system's, for sources without a clock).
    package var now: Date { Date() }

    /// The overrides still stored whose expiry has passed (no longer applied), with their expiry; none here.
    package func expiredOverrides() -> [String: OverrideExpiry] { [:] }

    /// The overrides the store doctor finds stale (orphans, no-ops, expired), by key; none here.
    package func staleOverrides() -> [StaleOverride] { [] }

    /// The bisect session on the store; none here.
    package var bisectBanner: BisectBanner? { nil }
}
