import Foundation

/// Wakes at the next expiry of a registry's overrides (``OverrideExpiry``) and runs what it was given then (the
/// registry puts its store's contents in force again, so overrides whose time has come stop applying). Holds no
/// registry: the registry gives it a deadline after each change it applies.
final class ExpiryTimer: Sendable {
    private let clock: any Clock<Duration>
    private let wallClock: MonotonicWallClock
    /// The task that wakes at the next expiry, with that moment.
    private let timer = AnnotatedMutex<(deadline: Date, task: Task<Void, Never>)?>(nil)

    /// A timer that sleeps on `clock` and judges deadlines by `wallClock`.
    init(clock: any Clock<Duration>, wallClock: MonotonicWallClock) {
        self.clock = clock
        self.wallClock = wallClock
    }

    /// Wakes at `deadline` and runs `expire`, instead of at the deadline given before; `nil` stops the timer.
    /// - Parameters:
    ///   - deadline: the next expiry, or `nil`.
    ///   - expire: what to run at it (called on a background task; it should hold its owner weakly).
    func schedule(at deadline: Date?, _ expire: @escaping @Sendable () -> Void) {
        timer.withLock { timer in
            if timer?.deadline == deadline { return }
            timer?.task.cancel()
            guard let deadline else {
                timer = nil
                return
            }
            let clock = self.clock
            let wallClock = self.wallClock
            let task = Task.detached(priority: .utility) { [weak self] in
                if let wait = ExpiryTimer.wait(until: deadline, now: wallClock.now()) {
                    do {
                        try await clock.sleep(for: wait)
                    } catch {
                        return  // cancelled: a new deadline, or the registry is gone
                    }
                }
                self?.timer.withLock { timer in
                    if timer?.deadline == deadline { timer = nil }
                }
                expire()
            }
            timer = (deadline, task)
        }
    }

    /// Stops the timer.
    func stop() {
        timer.withLock { timer in
            timer?.task.cancel()
            timer = nil
        }
    }

    /// How long the timer sleeps before `deadline`: `nil` when it is due, else at most a century (a longer wait in
    /// nanoseconds would pass `Int64`; woken early, the registry re-applies its snapshot, which sets the timer
    /// again).
    static func wait(until deadline: Date, now: Date) -> Duration? {
        let wait = min(deadline.timeIntervalSince(now), 100 * 365 * 86_400)
        guard wait > 0 else { return nil }
        return .nanoseconds(Int64((wait * 1e9).rounded(.up)))
    }
}
