import Dispatch

/// Runs a client's tasks (polling, metrics, fetches) on a serial dispatch queue of its own instead of Swift
/// concurrency's cooperative pool.
///
/// The cooperative pool has one thread per core (two on a 2-core machine). Code that computes for a long time
/// between two `await`s, or blocks, holds one of those threads; while all are held, no task on the pool is
/// resumed. A private serial queue is served by its own thread, whatever the pool is doing, and the client's work
/// is light (it waits for the network most of the time). Waits are sleeps on the client's clock
/// (``UnleashClientOptions/clock``); with `ContinuousClock` the wake-up itself goes through Swift's global
/// executor, so a busy pool can delay a poll, never a request's deadline (the transport also enforces it on a
/// private queue).
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
