import Dispatch
import Flagstaff

/// Runs async work to completion from the synchronous command line.
///
/// The work runs in a detached task on the global executor while the calling thread waits on a semaphore,
/// so nothing it needs runs on the blocked thread.
enum BlockingTask {
    /// Runs `body` and returns its result.
    static func run<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.set(await body())
            done.signal()
        }
        done.wait()
        guard let value = box.get() else { preconditionFailure("the task signalled without a result") }
        return value
    }
}

/// Hands a result from the task to the waiting thread.
private final class ResultBox<T: Sendable>: Sendable {
    private let value = AnnotatedMutex<T?>(nil)

    func set(_ newValue: T) {
        value.withLock { $0 = newValue }
    }

    func get() -> T? {
        value.withLock { $0 }
    }
}
