import Flagstaff
import Foundation

/// Writes the console's overrides to the registry without ever blocking the console's loop on another
/// process's store lock.
///
/// A write is performed at once, on the loop's thread, when no earlier write is still waiting and the store's
/// lock is free (the usual case: it takes a few milliseconds, and the next frame already shows the new value).
/// Otherwise it is queued, in order, for a background task that checks the lock every `retryInterval`,
/// reports who holds it (``ConsoleEvent/storeLocked(holder:waited:)``, about once a second) and writes as soon
/// as the lock is free: a write is retried until it lands, fails for another reason
/// (``ConsoleEvent/storeWriteFailed(_:)``), or the console quits (``stop()`` returns what was left unsaved).
///
/// Only a ``FileOverrideStore`` has a lock another process can hold; writes to other stores are always
/// performed at once. The lock is checked by trying it without waiting; in the instant between that check
/// and the write another process may take it, and that write then waits as the store's own
/// ``FileOverrideStore/LockWait`` says (on the background task when writes are queued).
///
/// Thread safety: ``submit(_:)`` and ``stop()`` are called from the console's loop; the task runs elsewhere.
package final class ConsoleStoreWriter: Sendable {
    /// One write: what it changes (for the list of unsaved keys) and how to perform it.
    package struct Job: Sendable {
        /// The keys the write changes (listed in ``ConsoleOutcome/unsavedKeys`` if it never lands).
        package var keys: [String] { listKeys() }
        /// Lists ``keys`` (only asked of a write that never lands).
        private let listKeys: @Sendable () -> [String]
        /// Performs the write (through the registry, which reports the changed flags).
        package let perform: @Sendable () throws -> Void

        /// Creates a job.
        package init(keys: [String], perform: @escaping @Sendable () throws -> Void) {
            self.init(listingKeys: { keys }, perform: perform)
        }

        /// Creates a job whose keys are listed only when asked for (a bulk change of many flags).
        package init(listingKeys: @escaping @Sendable () -> [String], perform: @escaping @Sendable () throws -> Void) {
            self.listKeys = listingKeys
            self.perform = perform
        }
    }

    private struct Queue: Sendable {
        var jobs: [Job] = []
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let queue = AnnotatedMutex(Queue())
    private let lockHolder: @Sendable () -> String?
    private let journalProblem: @Sendable () -> String?
    private let post: @Sendable (ConsoleEvent) -> Void
    private let clock: any Clock<Duration>
    private let retryInterval: Duration

    /// Creates a writer.
    /// - Parameters:
    ///   - lockHolder: who holds the store's lock now (`nil` when it is free or the store has none); must not
    ///     wait.
    ///   - journalProblem: why the last write's journal line could not be written (`nil`: it was, or the store
    ///     keeps none); asked after each saved write.
    ///   - retryInterval: how often a queued write checks the lock again.
    ///   - clock: the clock the retries wait on and the reported waits are measured on.
    ///   - post: where the background task reports results (the console's inbox).
    package init(
        lockHolder: @escaping @Sendable () -> String?, journalProblem: @escaping @Sendable () -> String? = { nil },
        retryInterval: Duration = .milliseconds(100), clock: any Clock<Duration>,
        post: @escaping @Sendable (ConsoleEvent) -> Void
    ) {
        self.lockHolder = lockHolder
        self.journalProblem = journalProblem
        self.retryInterval = retryInterval
        self.clock = clock
        self.post = post
    }

    /// A writer for a registry's store: the lock is checked when the store is a ``FileOverrideStore``.
    /// - Parameters:
    ///   - registry: the registry written to.
    ///   - clock: the clock the retries wait on.
    ///   - post: where results are reported.
    package convenience init(
        registry: AnyFeatureRegistry, clock: any Clock<Duration>, post: @escaping @Sendable (ConsoleEvent) -> Void
    ) {
        let store = registry.store as? FileOverrideStore
        let probe = store.flatMap { try? Self.lockProbe(for: $0.url) }
        self.init(
            lockHolder: { probe.flatMap(Self.holder(probing:)) },
            journalProblem: { store?.journalError.map(Self.journalText) }, clock: clock, post: post)
    }

    /// Performs a write now, or queues it behind earlier ones or while another process holds the lock.
    /// - Parameter job: the write.
    /// - Returns: the events for the loop now: the write's result when it was performed, or who holds the
    ///   lock when it was queued for that reason (nothing when it was queued behind an earlier write).
    package func submit(_ job: Job) -> [ConsoleEvent] {
        let idle = queue.withLock { $0.jobs.isEmpty && !$0.stopped }
        if idle {
            guard let holder = lockHolder() else {
                do {
                    try job.perform()
                    return saved()
                } catch let error as OverrideStoreError where error.isLockTimeout {
                    // Taken in the instant after the check, and held past the store's timeout: retry.
                    enqueue(job)
                    return [.storeLocked(holder: error.holder?.description ?? "", waited: error.waited ?? .zero)]
                } catch {
                    return [.storeWriteFailed("\(error)")]
                }
            }
            enqueue(job)
            return [.storeLocked(holder: holder, waited: .zero)]
        }
        enqueue(job)
        return []
    }

    /// Stops the background task (a write already past the lock check finishes) and returns the keys of the
    /// writes that were not saved, sorted.
    @discardableResult
    package func stop() -> [String] {
        let jobs = queue.withLock { queue -> [Job] in
            queue.stopped = true
            queue.task?.cancel()
            queue.task = nil
            defer { queue.jobs = [] }
            return queue.jobs
        }
        return Set(jobs.flatMap(\.keys)).sorted()
    }

    /// Whether writes are queued (waiting for the lock or behind one that is).
    package var hasQueuedWrites: Bool { queue.withLock { !$0.jobs.isEmpty } }

    private func enqueue(_ job: Job) {
        queue.withLock { queue in
            guard !queue.stopped else { return }
            queue.jobs.append(job)
            guard queue.task == nil else { return }
            queue.task = Task.detached { [self] in await drainQueue() }
        }
    }

    private func drainQueue() async {
        let clock: any Clock<Duration> = self.clock
        await drain(clock: clock)
    }

    /// Performs the queued writes in order, each once the lock is free, until none is left or stopped.
    private func drain<C: Clock<Duration>>(clock: C) async {
        while true {
            guard let job = queue.withLock({ $0.stopped ? nil : $0.jobs.first }) else { return }
            let start = clock.now
            var reportedSecond: Int64 = -1
            var result: [ConsoleEvent]?
            while result == nil {
                if let holder = lockHolder() {
                    let waited = start.duration(to: clock.now)
                    if waited.components.seconds != reportedSecond {
                        reportedSecond = waited.components.seconds
                        post(.storeLocked(holder: holder, waited: waited))
                    }
                    do { try await clock.sleep(for: retryInterval) } catch { return }
                    continue
                }
                if queue.withLock({ $0.stopped }) { return }
                do {
                    try job.perform()
                    result = saved()
                } catch let error as OverrideStoreError where error.isLockTimeout {
                    continue
                } catch {
                    result = [.storeWriteFailed("\(error)")]
                }
            }
            // Leaving when the queue is empty is decided under the lock that a new write's `enqueue` takes, so
            // that write starts a new task rather than being missed (or taken twice).
            let more = queue.withLock { queue -> Bool? in
                guard !queue.stopped else { return nil }
                queue.jobs.removeFirst()
                if queue.jobs.isEmpty { queue.task = nil }
                return !queue.jobs.isEmpty
            }
            guard let more, let result else { return }
            for event in result { post(event) }
            if !more { return }
        }
    }

    /// The events of a saved write: saved, then the journal's failure if its line could not be written.
    private func saved() -> [ConsoleEvent] {
        guard let problem = journalProblem() else { return [.storeWriteSaved] }
        return [.storeWriteSaved, .journalNotWritten(problem)]
    }

    /// `<journal>: <reason>`.
    private static func journalText(_ error: OverrideStoreError) -> String {
        if error.isUnwritable { return "\(error.path): \(error.reason)" }
        return "\(error)"
    }

    /// A store on the same file that gives up on a held lock at once: used to ask who holds it.
    private static func lockProbe(for url: URL) throws -> FileOverrideStore {
        try FileOverrideStore(
            url: url, lockWait: FileOverrideStore.LockWait(timeout: .zero, noticeAfter: .seconds(3600)))
    }

    /// Who holds the probe's lock (`nil` when it is free, or when the lock cannot be tried: the write then
    /// reports the store's own error).
    private static func holder(probing probe: FileOverrideStore) -> String? {
        do {
            try probe.holdingLock {}
            return nil
        } catch let error as OverrideStoreError where error.isLockTimeout {
            return error.holder?.description
        } catch {
            return nil
        }
    }
}
