import Foundation

/// Runs blocking work (waiting for a child process, sleeping between polls) on its own thread and awaits
/// it, so the test does not hold one of Swift concurrency's few cooperative threads (two on a 2-core
/// machine) while it waits: tests that block those threads starve every async test running beside them.
/// - Parameter body: the blocking work.
/// - Returns: what `body` returns.
/// - Throws: what `body` throws.
package func offCooperativePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread {
            continuation.resume(with: Result { try body() })
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
}

/// A task executor on a private serial dispatch queue: work that prefers it resumes there, not on the cooperative
/// pool, so a test can time what it awaits even while other tests keep every pool thread busy.
package final class PrivateQueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    /// Creates an executor.
    /// - Parameter label: The queue's label.
    package init(label: String = "flagstaff.tests.private-executor") {
        queue = DispatchQueue(label: label)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Runs `operation` on a ``PrivateQueueExecutor`` of its own (it and its child tasks resume there).
/// - Parameter operation: The timed work.
/// - Returns: What `operation` returns.
package func offCooperativePool<T: Sendable>(timing operation: () async throws -> T) async rethrows -> T {
    try await withTaskExecutorPreference(PrivateQueueExecutor(), operation: operation)
}

/// Checks `condition` every few milliseconds on the calling thread until it holds or `timeout` passes: the blocking
/// counterpart of `eventually(timeout:_:)`, for work that already runs on a thread of its own (inside
/// ``offCooperativePool(_:)``, beside a blocking client). Unavailable in async code, where it would hold one of
/// the cooperative pool's threads.
/// - Parameters:
///   - timeout: how long to keep trying (generous: only a failing test waits it out).
///   - condition: what is awaited.
/// - Returns: whether the condition held in time.
/// - Throws: what `condition` throws.
@available(*, noasync, message: "use eventually(timeout:_:) in async code")
package func blockingEventually(timeout: Duration = .seconds(90), _ condition: () throws -> Bool) rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while true {
        if try condition() { return true }
        if clock.now >= deadline { return false }
        Thread.sleep(forTimeInterval: 0.005)
    }
}
