/// Runs async work with a hard deadline, even if the work ignores cancellation.
enum UnleashDeadline {
    /// The shared state of one race: the waiting continuation and the competing tasks.
    private final class Race<Value: Sendable>: Sendable {
        private struct Slots {
            var continuation: CheckedContinuation<Value, Never>?
            var tasks: [Task<Void, Never>] = []
            var finished = false
            /// The winning value when it arrived before the continuation was armed.
            var early: Value?
        }

        private let slots = Protected(Slots())

        func arm(_ continuation: CheckedContinuation<Value, Never>) {
            let early = slots.withLock { slots -> Value? in
                if slots.finished { return slots.early }
                slots.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }

        /// Keeps the tasks so the winner can cancel them; cancels them at once if the race is already over.
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
    /// `onTimeout`, whichever comes first; the loser is cancelled.
    static func run<Value: Sendable>(
        timeout: Duration, onTimeout: Value, _ operation: @escaping @Sendable () async -> Value
    ) async -> Value {
        let race = Race<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.arm(continuation)
                let work = Task { race.finish(await operation()) }
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled { race.finish(onTimeout) }
                }
                race.track([work, timer])
            }
        } onCancel: {
            race.finish(onTimeout)
        }
    }
}
