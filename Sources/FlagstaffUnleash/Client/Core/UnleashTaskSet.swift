import Flagstaff

/// The background tasks of a client (polling, metrics), cancelled together by `stop()`.
final class UnleashTaskSet: Sendable {
    private let tasks = AnnotatedMutex([String: Task<Void, Never>]())

    /// Starts `task` under `name`, cancelling the one it replaces.
    func replace(_ name: String, with task: Task<Void, Never>) {
        let old = tasks.withLock { $0.updateValue(task, forKey: name) }
        old?.cancel()
    }

    /// Cancels every task.
    func cancelAll() {
        let all = tasks.withLock { tasks -> [Task<Void, Never>] in
            defer { tasks.removeAll() }
            return Array(tasks.values)
        }
        all.forEach { $0.cancel() }
    }

    /// Runs `body` every `interval` (a sleep on `clock`) on `executor` until cancelled, until `interval` is `nil` or
    /// the owner is gone.
    static func loop<Owner: AnyObject & Sendable>(
        owner: Owner, executor: UnleashExecutor, clock: any Clock<Duration>,
        interval: @escaping @Sendable (Owner) -> Duration?, body: @escaping @Sendable (Owner) async -> Void
    ) -> Task<Void, Never> {
        executor.task { [weak owner] in
            while true {
                guard let wait = owner.flatMap(interval) else { return }
                do { try await clock.sleep(for: wait) } catch { return }
                guard !Task.isCancelled, let current = owner else { return }
                await body(current)
            }
        }
    }

    /// The names of the tasks started and not cancelled; for tests.
    var names: Set<String> { tasks.withLock { Set($0.keys) } }

    /// Waits until the task started under `name` has ended (at once if there is none); for tests.
    func waitUntilEnded(_ name: String) async {
        await tasks.withLock { $0[name] }?.value
    }
}
