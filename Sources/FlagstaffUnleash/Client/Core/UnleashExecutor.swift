import Dispatch

/// Runs a client's tasks (polling, metrics, fetches) on a serial dispatch queue of its own instead of Swift
/// concurrency's cooperative pool.
///
/// Why: the pool has one thread per core, and an app (or a test) that blocks them all would stall the client; a
/// private queue keeps running. A busy pool can still delay a poll's wake-up (sleeps on `ContinuousClock` resume
/// through the global executor), never a request's deadline, which the transport enforces on its own queue.
final class UnleashExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// Creates an executor.
    /// - Parameter label: The queue's label, shown in debuggers.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Runs `operation` with this executor preferred, so it and its child tasks resume here, not on the pool.
    func run<T: Sendable>(_ operation: () async -> T) async -> T {
        await withTaskExecutorPreference(self, operation: operation)
    }

    /// Starts an unstructured task on this executor; it does not inherit the caller's cancellation.
    @discardableResult
    func task(_ operation: sending @escaping @isolated(any) () async -> Void) -> Task<Void, Never> {
        Task(executorPreference: self, operation: operation)
    }
}
