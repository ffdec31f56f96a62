import Foundation

/// The app's writes (``AnyFlag/override`` and ``Setting/overriddenValue`` set from app code) that are in force in
/// memory but not yet in the store: kept in the registry's state, taken in order by its write queue
/// (``AnyFeatureRegistry/flush()``). Pure bookkeeping: no I/O, no lock of its own.
///
/// Every setter call gets a number. ``latest`` holds, for each key whose write has not finished, the last value set
/// and its number: the registry shows it on top of the store's contents (``overlay(on:)``). ``steps`` holds the
/// calls not yet taken by a write; a write takes them all at once (``takeBatch()``), the file getting the last value
/// of each key and the journal every call.
struct PendingAppWrites: Sendable {
    /// The last value set for each key whose write has not finished, with that call's number.
    private(set) var latest: [String: (value: OverrideValue?, sequence: UInt64)] = [:]
    /// The calls not yet taken by a write, in order.
    private(set) var steps: [OverrideChange.JournalStep] = []
    /// The number of the last call.
    private(set) var lastSequence: UInt64 = 0
    /// Every call up to this number has been written, or its write has failed.
    private(set) var finishedThrough: UInt64 = 0
    /// Whether a drain of the queue is scheduled or running.
    var isDraining = false
    /// The ``AnyFeatureRegistry/flush()`` calls waiting.
    private var waiters: [Waiter] = []
    /// The error of a write that failed with no ``AnyFeatureRegistry/flush()`` waiting for it, for the next flush
    /// to throw: a flush promises that what the app set is durable, so it must not return quietly just because the
    /// failed write finished first. A later successful write clears it.
    private var unreportedFailure: (any Error)?

    /// A ``AnyFeatureRegistry/flush()`` call waiting for every call up to `through` to finish.
    struct Waiter: Sendable {
        var through: UInt64
        var continuation: CheckedContinuation<Void, any Error>
        /// The error of a write that failed while it waited.
        var failure: (any Error)?

        /// Resumes the waiting call: returning, or throwing the error of a write that failed while it waited.
        func resume() {
            if let failure { continuation.resume(throwing: failure) } else { continuation.resume() }
        }
    }

    /// Whether every call has finished (written or failed).
    var isIdle: Bool { finishedThrough == lastSequence }

    /// Records a setter call.
    mutating func record(key: String, value: OverrideValue?, time: Date) {
        lastSequence += 1
        latest[key] = (value, lastSequence)
        steps.append(OverrideChange.JournalStep(key: key, edit: OverrideEdit(value), time: time))
    }

    /// `snapshot` with the values of ``latest`` on top (a value set by the app is permanent: it has no expiry).
    func overlay(on snapshot: StoreSnapshot) -> StoreSnapshot {
        var result = snapshot
        for (key, entry) in latest {
            if let value = entry.value {
                result.overrides[key] = value
            } else {
                result.overrides.removeValue(forKey: key)
            }
            if !result.expiries.isEmpty { result.expiries.removeValue(forKey: key) }
        }
        return result
    }

    /// Takes every call not yet taken, as one change (the last value of each key) carrying the calls as its
    /// ``OverrideChange/journalSteps``, with the number of the last call; `nil` when there is none.
    mutating func takeBatch() -> (change: OverrideChange, through: UInt64)? {
        guard !steps.isEmpty else { return nil }
        var edits: [String: OverrideEdit] = [:]
        for step in steps { edits[step.key] = step.edit }
        var change = OverrideChange(edits)
        change.journalSteps = steps
        steps = []
        return (change, lastSequence)
    }

    /// Notes that the calls up to `through` have been written (`failure` `nil`) or have failed: their values leave
    /// ``latest`` (the store's contents, or a later call, decide the keys now), and a failure is kept for every
    /// waiting ``AnyFeatureRegistry/flush()``.
    /// - Returns: the waiters whose calls have all finished, to resume once the caller has released its locks.
    mutating func finish(through: UInt64, failure: (any Error)?) -> [Waiter] {
        latest = latest.filter { $0.value.sequence > through }
        finishedThrough = max(finishedThrough, through)
        if let failure {
            for index in waiters.indices { waiters[index].failure = failure }
            unreportedFailure = waiters.isEmpty ? failure : nil
        } else {
            unreportedFailure = nil
        }
        let done = waiters.filter { $0.through <= finishedThrough }
        waiters.removeAll { $0.through <= finishedThrough }
        return done
    }

    /// Adds a ``AnyFeatureRegistry/flush()`` call waiting for every call made so far.
    mutating func wait(_ continuation: CheckedContinuation<Void, any Error>) {
        waiters.append(Waiter(through: lastSequence, continuation: continuation))
    }

    /// The error a ``AnyFeatureRegistry/flush()`` that finds nothing pending throws: that of the last write, when it
    /// failed and no flush has reported it yet (it is reported once).
    mutating func takeUnreportedFailure() -> (any Error)? {
        defer { unreportedFailure = nil }
        return unreportedFailure
    }
}
