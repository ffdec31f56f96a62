import Foundation

/// The answer to one bisect step: whether the app showed the problem with the overrides under test.
package enum BisectAnswer: String, Sendable, Hashable, CaseIterable {
    /// The problem did not appear: the culprit is among the candidates not under test.
    case good
    /// The problem appeared: the culprit is among the candidates under test.
    case bad
}

/// A bisect over overrides: which override makes the problem appear.
///
/// The candidates are overrides that were in the store when the bisect started (all of them, or those whose
/// keys match a pattern). It assumes the problem appears with all candidates applied and not with none, and that
/// one candidate causes it. Each step applies the first half (rounded up) of the remaining candidates, in key
/// order, and removes the others; a `bad` answer keeps the half under test, a `good` one the other half. With N
/// candidates the culprit is known after at most ⌈log₂ N⌉ answers.
///
/// A session is a value: the candidates and the answers so far. Everything else (what remains, what is under
/// test, the culprit) follows from them.
package struct BisectSession: Sendable, Equatable {
    /// When the bisect started.
    package let startedAt: Date
    /// The key pattern given at the start (`checkout.*`), or `nil` for all overrides.
    package let pattern: String?
    /// The candidates and the values they had when the bisect started.
    package let candidates: [String: OverrideValue]
    /// The expiry of the candidates that had one when the bisect started (kept when they are applied again).
    package let expiries: [String: OverrideExpiry]
    /// The answers given so far, oldest first.
    package let answers: [BisectAnswer]
    /// The candidates the culprit may still be, in key order.
    package let remaining: [String]

    /// Creates a session and works out what remains after `answers`.
    /// - Parameters:
    ///   - startedAt: when it started.
    ///   - pattern: the key pattern, if any.
    ///   - candidates: the candidates and their values (not empty).
    ///   - expiries: the expiry of candidates that have one.
    ///   - answers: the answers so far.
    /// - Throws: ``BisectError`` when there are no candidates or more answers than the candidates allow.
    package init(
        startedAt: Date, pattern: String?, candidates: [String: OverrideValue],
        expiries: [String: OverrideExpiry] = [:], answers: [BisectAnswer] = []
    ) throws(BisectError) {
        guard !candidates.isEmpty else { throw BisectError(code: .noCandidates(pattern: pattern)) }
        var remaining = candidates.keys.sorted()
        for (index, answer) in answers.enumerated() {
            guard remaining.count > 1 else {
                throw BisectError(
                    code: .invalidSession(
                        "\(answers.count) answers, but \(candidates.count) candidate(s) need at most \(index)"))
            }
            let half = Self.firstHalfCount(remaining.count)
            remaining = answer == .bad ? Array(remaining.prefix(half)) : Array(remaining.dropFirst(half))
        }
        self.startedAt = startedAt
        self.pattern = pattern
        self.candidates = candidates
        self.expiries = expiries.filter { candidates[$0.key] != nil }
        self.answers = answers
        self.remaining = remaining
    }

    /// How many of `count` remaining candidates a step applies: half, rounded up.
    static func firstHalfCount(_ count: Int) -> Int { (count + 1) / 2 }

    /// Whether the culprit is known (one candidate remains).
    package var isDone: Bool { remaining.count == 1 }

    /// The culprit, once known.
    package var culprit: String? { isDone ? remaining.first : nil }

    /// The candidates applied in the current step, in key order (empty once done).
    package var testing: [String] { isDone ? [] : Array(remaining.prefix(Self.firstHalfCount(remaining.count))) }

    /// The candidates the store holds now: those under test, or the culprit alone once done.
    package var applied: [String] { isDone ? remaining : testing }

    /// The number of the current step (1 before the first answer).
    package var step: Int { answers.count + 1 }

    /// At most how many more answers find the culprit: ⌈log₂ remaining⌉.
    package var answersLeft: Int { Self.maximumAnswers(remaining.count) }

    /// ⌈log₂ count⌉: at most how many answers find one culprit among `count` candidates.
    /// - Parameter count: the number of candidates.
    package static func maximumAnswers(_ count: Int) -> Int {
        var answers = 0
        var size = 1
        while size < count {
            size *= 2
            answers += 1
        }
        return answers
    }

    /// The session after one more answer.
    /// - Throws: ``BisectError`` when the culprit is already known.
    package func answering(_ answer: BisectAnswer) throws(BisectError) -> BisectSession {
        if let culprit { throw BisectError(code: .finished(culprit: culprit)) }
        return try BisectSession(
            startedAt: startedAt, pattern: pattern, candidates: candidates, expiries: expiries,
            answers: answers + [answer])
    }

    /// What the store should hold under each candidate's key in this step at `date`: its value when applied,
    /// none when removed or when its expiry has passed.
    /// - Parameter date: the store's current time.
    package func expectedOverrides(at date: Date) -> [String: OverrideEdit] {
        let applied = Set(applied)
        var expected: [String: OverrideEdit] = [:]
        for (key, value) in candidates {
            let live = applied.contains(key) && !(expiries[key]?.isExpired(at: date) ?? false)
            expected[key] = live ? .set(value) : .remove
        }
        return expected
    }

    /// The values from before the start at `date`: every candidate's value, except those whose expiry has passed
    /// (removed: they would have stopped applying anyway).
    /// - Parameter date: the store's current time.
    package func originalOverrides(at date: Date) -> [String: OverrideEdit] {
        var original: [String: OverrideEdit] = [:]
        for (key, value) in candidates {
            let expired = expiries[key]?.isExpired(at: date) ?? false
            original[key] = expired ? .remove : .set(value)
        }
        return original
    }

    /// The candidates whose entries in `overrides` differ from what this step applied (someone changed them
    /// meanwhile), in key order.
    /// - Parameters:
    ///   - overrides: the store's overrides in force.
    ///   - date: the store's current time.
    package func changedCandidates(in overrides: [String: OverrideValue], at date: Date) -> [BisectDrift] {
        let expected = expectedOverrides(at: date)
        return expected.keys.sorted().compactMap { key in
            let value = expected[key]?.value
            return overrides[key] == value ? nil : BisectDrift(key: key, expected: value, found: overrides[key])
        }
    }
}

/// A candidate whose store entry is not what the bisect left there.
package struct BisectDrift: Sendable, Equatable, CustomStringConvertible {
    /// The key.
    package let key: String
    /// What the bisect left (`nil`: no override).
    package let expected: OverrideValue?
    /// What the store holds now (`nil`: no override).
    package let found: OverrideValue?

    /// `checkout.v2 is now "off" (bisect left "on")`.
    package var description: String {
        func text(_ value: OverrideValue?) -> String { value.map { $0.summary } ?? "not overridden" }
        return "\(TextSanitizer.sanitize(key)) is now \(text(found)) (bisect left \(text(expected)))"
    }
}
