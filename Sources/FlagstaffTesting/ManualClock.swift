import Flagstaff
import Foundation

/// A clock that moves only when a test tells it to: the test double for every `any Clock<Duration>` that
/// Flagstaff's types take (remote-config fetch timeouts and intervals, the Unleash poller's intervals and
/// backoff, the store watcher, the console's ticks).
///
/// ```swift
/// let clock = ManualClock()
/// let client = UnleashClient(options: options, clock: clock)
/// await clock.waitForSleepers()       // the poller is waiting for its next interval
/// clock.advance(by: .seconds(15))     // … which is now over: the poller fetches again
/// ```
///
/// `sleep(until:)` suspends until ``advance(by:)`` or ``advance(to:)`` reaches the deadline (or the task is
/// cancelled, which throws `CancellationError` as `ContinuousClock` does). Sleepers whose deadlines are
/// reached are resumed in deadline order. ``waitForSleepers(_:timeout:)`` lets a test wait until the code
/// under test has reached its sleep, so that advancing the clock is never a race.
///
/// Thread safety: every method may be called from any thread or task at once.
public final class ManualClock: Clock, Sendable {
    /// A point in a ``ManualClock``'s time: the time elapsed since the clock was created.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        /// Time since the clock's start.
        public var offset: Duration

        /// Creates an instant at `offset` after the clock's start.
        /// - Parameter offset: the time since the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        /// - Parameter duration: how much later (negative for earlier).
        /// - Returns: the moved instant.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        /// - Parameter other: the later (or earlier) instant.
        /// - Returns: `other - self`.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Orders instants by their offset.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        /// Sleep calls whose task was cancelled before they were registered.
        var cancelledBeforeRegistration: Set<UInt64> = []
        var waiters: [Waiter] = []
    }

    private let state = AnnotatedMutex(State())

    /// The wall-clock date the clock's start stands for (see ``date``).
    public let startDate: Date

    /// Creates a clock at offset zero with nobody sleeping.
    /// - Parameter startDate: the wall-clock date that offset zero stands for, for code that also needs
    ///   dates (persisted timestamps, HTTP dates); a fixed date by default, so tests are repeatable.
    public init(startDate: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        self.startDate = startDate
    }

    /// The wall-clock date matching ``now``: ``startDate`` plus the time advanced so far. Pass `{ clock.date }`
    /// wherever a type takes a date source beside its clock.
    public var date: Date {
        let offset = now.offset.components
        return startDate.addingTimeInterval(Double(offset.seconds) + Double(offset.attoseconds) / 1e18)
    }

    /// The current instant: moves only through ``advance(by:)`` and ``advance(to:)``.
    public var now: Instant { state.withLock { $0.now } }

    /// The clock's resolution: exact.
    public var minimumResolution: Duration { .zero }

    /// The number of tasks currently sleeping on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline of the tasks sleeping now, if any: what the code under test waits for.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    /// Suspends until the clock reaches `deadline`.
    /// - Parameters:
    ///   - deadline: when to wake up; a deadline already reached returns at once.
    ///   - tolerance: ignored (the clock is exact).
    /// - Throws: `CancellationError` when the task is cancelled before the deadline.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLock { state -> (resumeNow: Result<Void, any Error>?, waiters: [Waiter]) in
                    if state.cancelledBeforeRegistration.remove(id) != nil {
                        return (.failure(CancellationError()), [])
                    }
                    if deadline <= state.now { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, Self.takeSatisfiedWaiters(&state))
                }
                if let resumeNow = outcome.resumeNow { continuation.resume(with: resumeNow) }
                for waiter in outcome.waiters { waiter.continuation.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeRegistration.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        // A cancellation that raced a resume from `advance` leaves its id behind; drop it.
        state.withLock { _ = $0.cancelledBeforeRegistration.remove(id) }
    }

    /// Moves the clock forward and wakes every sleeper whose deadline is reached, earliest first.
    /// - Parameter duration: how far; negative durations are ignored (the clock never goes back).
    public func advance(by duration: Duration) {
        let target = state.withLock { $0.now.advanced(by: max(duration, .zero)) }
        advance(to: target)
    }

    /// Moves the clock to `instant` (if it is later than now) and wakes every sleeper whose deadline is
    /// reached, earliest first.
    /// - Parameter instant: the new time.
    public func advance(to instant: Instant) {
        let due = state.withLock { state -> [Sleeper] in
            if instant > state.now { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits until at least `count` tasks are sleeping on this clock.
    ///
    /// Call it before ``advance(by:)`` when the code under test sleeps in a task of its own: it returns as
    /// soon as that task has reached its sleep, so the advance cannot come too early.
    /// - Parameters:
    ///   - count: how many sleepers to wait for.
    ///   - timeout: a real-time limit after which the wait fails (a safety net for a test whose code never
    ///     sleeps; it is not part of any measurement).
    /// - Throws: ``ManualClockError`` when the timeout passes first; `CancellationError` when cancelled.
    public func waitForSleepers(_ count: Int = 1, timeout: Duration = .seconds(30)) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        let watchdog = Task.detached { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.failWaiter(
                id, with: ManualClockError(sleepers: self?.sleeperCount ?? 0, wanted: count, timeout: timeout))
        }
        defer { watchdog.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Bool in
                    if state.sleepers.count >= count { return true }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            failWaiter(id, with: CancellationError())
        }
    }

    private func failWaiter(_ id: UInt64, with error: any Error) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(throwing: error)
    }

    private static func takeSatisfiedWaiters(_ state: inout State) -> [Waiter] {
        let count = state.sleepers.count
        let satisfied = state.waiters.filter { $0.count <= count }
        state.waiters.removeAll { $0.count <= count }
        return satisfied
    }
}

/// ``ManualClock/waitForSleepers(_:timeout:)`` gave up: the code under test did not reach its sleep.
public struct ManualClockError: Error, CustomStringConvertible, Sendable {
    /// How many tasks were sleeping when the wait gave up.
    public let sleepers: Int
    /// How many were waited for.
    public let wanted: Int
    /// The real-time limit that passed.
    public let timeout: Duration

    /// What went wrong, for the test log.
    public var description: String {
        "ManualClock: waited \(timeout) for \(wanted) sleeper(s), but only \(sleepers) reached their sleep"
    }
}

/// ``date`` is the wall-clock date matching ``now``, so one manual clock can drive both waiting and expiry (pass it
/// as `RegistryOptions(clock:wallClock:)` and to the store).
extension ManualClock: WallClock {}
