import Dispatch
import Flagstaff

/// Sleeps on timers that fire on ``UnleashExecutor/timers``, not on the cooperative pool (see ``UnleashExecutor``).
/// Request deadlines are the transport's own (`RemoteHTTPTransport`, also on a private queue).
enum UnleashDeadline {
    /// Waits `duration`, or less when the task is cancelled.
    /// - Returns: `true` after the whole wait, `false` when cancelled.
    static func sleep(for duration: Duration) async -> Bool {
        let race = UnleashRace<Bool>()
        race.finish(true, after: duration)
        return await withTaskCancellationHandler {
            await race.value()
        } onCancel: {
            race.finish(false)
        }
    }
}

/// One value that several parties race to deliver (the work, a timer, cancellation); the waiting task gets the
/// first, later ones are dropped.
final class UnleashRace<Value: Sendable>: Sendable {
    private struct Slots {
        var continuation: CheckedContinuation<Value, Never>?
        var timer: Timer?
        var finished = false
        /// The winning value when it arrived before anyone waited.
        var early: Value?
    }

    /// A scheduled work item. `@unchecked Sendable`: it is only created, scheduled and cancelled, and
    /// `DispatchWorkItem.cancel()` may be called from any thread.
    private final class Timer: @unchecked Sendable {
        let item: DispatchWorkItem
        init(_ item: DispatchWorkItem) { self.item = item }
    }

    private let slots = AnnotatedMutex(Slots())

    /// Waits for the winning value.
    func value() async -> Value {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
            let early = slots.withLock { slots -> Value? in
                if slots.finished { return slots.early }
                slots.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    /// Delivers `value` after `delay`, unless another value wins first (the timer is then cancelled).
    func finish(_ value: Value, after delay: Duration) {
        let timer = Timer(DispatchWorkItem { [weak self] in self?.finish(value) })
        let armed = slots.withLock { slots -> Bool in
            guard !slots.finished else { return false }
            slots.timer = timer
            return true
        }
        guard armed else { return }
        let (seconds, attoseconds) = delay.components
        let (whole, overflow) = max(0, seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let nanoseconds = overflow ? Int64.max : whole.addingReportingOverflow(max(0, attoseconds) / 1_000_000_000).partialValue
        UnleashExecutor.timers.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: timer.item)
    }

    /// Delivers `value` if nothing was delivered yet.
    func finish(_ value: Value) {
        let (continuation, timer) = slots.withLock { slots -> (CheckedContinuation<Value, Never>?, Timer?) in
            guard !slots.finished else { return (nil, nil) }
            slots.finished = true
            if slots.continuation == nil { slots.early = value }
            defer {
                slots.continuation = nil
                slots.timer = nil
            }
            return (slots.continuation, slots.timer)
        }
        timer?.item.cancel()
        continuation?.resume(returning: value)
    }
}
