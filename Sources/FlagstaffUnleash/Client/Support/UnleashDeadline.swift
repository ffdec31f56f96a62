import Flagstaff

/// Runs async work with a hard deadline, even if the work ignores cancellation.
enum UnleashDeadline {
    /// The shared state of one race: the waiting continuation and the timer task.
    private final class Race<Value: Sendable>: Sendable {
        private struct Slots {
            var continuation: CheckedContinuation<Value, Never>?
            var tasks: [Task<Void, Never>] = []
            var finished = false
            /// The winning value when it arrived before the continuation was armed.
            var early: Value?
        }

        private let slots = AnnotatedMutex(Slots())

        func arm(_ continuation: CheckedContinuation<Value, Never>) {
            let early = slots.withLock { slots -> Value? in
                if slots.finished { return slots.early }
                slots.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        /// Keeps the timer so the winner can cancel it; cancels it at once if the race is already over.
        func track(_ tasks: [Task<Void, Never>]) {
            let finished = slots.withLock { slots in
                slots.tasks = tasks
                return slots.finished
            }
            if finished { tasks.forEach { $0.cancel() } }
        }

        /// Resumes the waiter with the first value; later values are dropped.
        func finish(_ value: Value) {
            let (continuation, tasks) = slots.withLock { slots -> (CheckedContinuation<Value, Never>?, [Task<Void, Never>]) in
                guard !slots.finished else { return (nil, []) }
                slots.finished = true
                if slots.continuation == nil { slots.early = value }
                defer { slots.continuation = nil }
                return (slots.continuation, slots.tasks)
            }
            tasks.forEach { $0.cancel() }
            continuation?.resume(returning: value)
        }
    }

    /// Returns the operation's value or, after `timeout` (or when the calling task is cancelled),
    /// `onTimeout`, whichever comes first. The timer is cancelled when the operation wins; the operation is left
    /// to finish on its own when it loses (see the comment inside).
    static func run<Value: Sendable>(
        timeout: Duration, onTimeout: Value, _ operation: @escaping @Sendable () async -> Value
    ) async -> Value {
        let race = Race<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.arm(continuation)
                // The work is not cancelled when it loses: cancelling a FoundationNetworking request from a
                // cancellation handler can deadlock (its cancel does a `dispatch_sync` onto the session queue
                // while Swift holds the task's status lock, and that queue may be resuming the same task).
                // The loser runs out on its own; the transport gives it a Foundation timeout as a backstop.
                Task { race.finish(await operation()) }
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { race.finish(onTimeout) }
                }
                race.track([timer])
            }
        } onCancel: {
            race.finish(onTimeout)
        }
    }
}
