import Flagstaff
import Foundation

/// Writes the console's changes to the registry without ever blocking the console's loop on another process's
/// store lock: the one place where the console calls the core's write API (``write(_:)``).
///
/// A write is tried at once, on the loop's thread, when no earlier write is still waiting (the usual case: it
/// takes a few milliseconds, and the next frame already shows the new value). Each attempt takes the store's lock
/// once, with a wait of zero (``WriteParameters/lockWait``): when another process holds it, the
/// attempt fails at once naming the holder, and the write is queued, in order, for a background task that tries
/// again every `retryInterval`, reports who holds the lock (``ConsoleEvent/storeLocked(holder:waited:)``, about
/// once a second) and lands as soon as the lock is free. A write is retried until it lands, fails for another
/// reason (``ConsoleEvent/storeWriteFailed(_:)``), or the console quits (``stop()`` returns what was left unsaved).
///
/// A saved write also posts the keys it wrote to the inbox, merged with the registry's report of the flags it changed
/// into one change: a write that sets only an expiry changes no value, so the registry does not report it.
///
/// Thread safety: ``submit(_:)`` and ``stop()`` are called from the console's loop; the task runs elsewhere.
package final class ConsoleStoreWriter: Sendable {
    private struct Queue: Sendable {
        var writes: [StoreWrite] = []
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let registry: AnyFeatureRegistry
    private let queue = AnnotatedMutex(Queue())
    private let inbox: ConsoleInbox
    private let clock: any Clock<Duration>
    private let retryInterval: Duration

    /// Creates a writer for a registry's store.
    /// - Parameters:
    ///   - registry: the registry written to.
    ///   - retryInterval: how often a queued write tries the lock again.
    ///   - clock: the clock the retries wait on and the reported waits are measured on.
    ///   - inbox: where the keys written go, and the background task's results (the console's inbox).
    package init(
        registry: AnyFeatureRegistry, retryInterval: Duration = .milliseconds(100), clock: any Clock<Duration>,
        inbox: ConsoleInbox
    ) {
        self.registry = registry
        self.retryInterval = retryInterval
        self.clock = clock
        self.inbox = inbox
    }

    private func post(_ event: ConsoleEvent) { inbox.post(event) }

    /// Performs a write now, or queues it behind earlier ones or while another process holds the lock.
    /// - Parameter write: the change.
    /// - Returns: the events for the loop now: the write's result when it was performed, or who holds the
    ///   lock when it was queued for that reason (nothing when it was queued behind an earlier write).
    package func submit(_ write: StoreWrite) -> [ConsoleEvent] {
        let idle = queue.withLock { $0.writes.isEmpty && !$0.stopped }
        guard idle else {
            enqueue(write)
            return []
        }
        switch attempt(write) {
        case .done(let events): return events
        case .locked(let holder):
            enqueue(write)
            return [.storeLocked(holder: holder, waited: .zero)]
        }
    }

    /// Stops the background task (a write already past the lock finishes) and returns the keys of the writes that
    /// were not saved, sorted.
    @discardableResult
    package func stop() -> [String] {
        let writes = queue.withLock { queue -> [StoreWrite] in
            queue.stopped = true
            queue.task?.cancel()
            queue.task = nil
            defer { queue.writes = [] }
            return queue.writes
        }
        return Set(writes.flatMap(keys)).sorted()
    }

    /// Whether writes are queued (waiting for the lock or behind one that is).
    package var hasQueuedWrites: Bool { queue.withLock { !$0.writes.isEmpty } }

    private enum Attempt {
        /// Performed: saved or failed, as events.
        case done([ConsoleEvent])
        /// Another process holds the store's lock.
        case locked(holder: String)
    }

    /// One try: the lock taken once, without waiting.
    private func attempt(_ change: StoreWrite) -> Attempt {
        let noWait = WriteParameters(lockWait: FileOverrideStore.LockWait(timeout: .zero, noticeAfter: .seconds(3600)))
        do {
            let written = try write(change, parameters: noWait)
            inbox.post(written.keys)
            if let step = written.step { post(.historyStepped(step)) }
            return .done(saved(written))
        } catch let error as OverrideStoreError where error.isLockTimeout {
            return .locked(holder: error.holder?.description ?? "")
        } catch {
            return .done([.storeWriteFailed("\(error)")])
        }
    }

    /// What a write did, beyond what the registry reports.
    private struct Written {
        /// The keys written (their stored entries may have changed without their values).
        var keys: ChangedFlags
        /// For an undo or a redo, what it did or why it did nothing (a refusal changes nothing and counts as saved).
        var step: HistoryStep?
        /// Why the change was saved without its journal lines, or `nil`.
        var journalError: OverrideStoreError?
    }

    /// Performs one change through the registry (which reports the changed flags): every call the console makes
    /// into the core's write API.
    ///
    /// Every write QA makes here is stored as asked (``OverrideWritePolicy/writeEveryValue``), one flag as every
    /// marked one: `x` forces OFF (docs/console.md), so `x` on a flag that is off by default stores an override and
    /// shows it, whether the flag was selected or marked with others, and the store file is the same either way.
    private func write(_ change: StoreWrite, parameters: WriteParameters) throws -> Written {
        switch change {
        case .values(let changes, let expiresIn):
            let receipt = try registry.writeOverrideValues(
                changes, expiresAt: expiresIn.map { registry.now.addingTimeInterval($0) }, policy: .writeEveryValue,
                parameters: parameters)
            return Written(
                keys: ChangedFlags(changes.keys), journalError: receipt.journalError)
        case .members(let members, let edit):
            let receipt = try registry.writeOnOffValue(
                edit, toMembers: members, policy: .writeEveryValue, parameters: parameters)
            let keys = members.count > ConsoleFeed.listedChangeLimit ? .many : ChangedFlags(self.keys(of: change))
            return Written(
                keys: keys, journalError: receipt.journalError)
        case .resetAll:
            let receipt = try registry.resetAllOverrides(parameters: parameters)
            return Written(keys: .many, journalError: receipt.journalError)
        case .profile(let profile, let replace, let changes):
            let receipt = try profile.apply(to: registry, replace: replace, parameters: parameters).receipt
            return Written(keys: ChangedFlags(changes.keys), journalError: receipt?.journalError)
        case .history(let redo):
            do {
                let outcome =
                    try redo
                    ? ChangeHistory(registry).redo(parameters: parameters)
                    : ChangeHistory(registry).undo(parameters: parameters)
                let keys = ChangedFlags(outcome.target.entries.lazy.map(\.key))
                return Written(
                    keys: keys, step: .done(redo: redo, change: outcome.target),
                    journalError: outcome.receipt.journalError)
            } catch let error as HistoryError {
                return Written(keys: .keys([]), step: .refused(redo: redo, reason: error.description))
            }
        }
    }

    /// The keys a write changes, for the list of unsaved keys.
    private func keys(of change: StoreWrite) -> [String] {
        switch change {
        case .values(let changes, _), .profile(_, _, let changes):
            return Array(changes.keys)
        case .members(let marked, _):
            let all = registry.allFeatures
            return marked.ordinals.compactMap { all.indices.contains($0) ? all[$0].key : nil }
        case .resetAll:
            return Array(registry.storedOverrides.keys)
        case .history:
            return []
        }
    }

    private func enqueue(_ write: StoreWrite) {
        queue.withLock { queue in
            guard !queue.stopped else { return }
            queue.writes.append(write)
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
            guard let write = queue.withLock({ $0.stopped ? nil : $0.writes.first }) else { return }
            let start = clock.now
            var reportedSecond: Int64 = -1
            var result: [ConsoleEvent]?
            while result == nil {
                if queue.withLock({ $0.stopped }) { return }
                switch attempt(write) {
                case .done(let events):
                    result = events
                case .locked(let holder):
                    let waited = start.duration(to: clock.now)
                    if waited.components.seconds != reportedSecond {
                        reportedSecond = waited.components.seconds
                        post(.storeLocked(holder: holder, waited: waited))
                    }
                    do { try await clock.sleep(for: retryInterval) } catch { return }
                }
            }
            // Leaving when the queue is empty is decided under the lock that a new write's `enqueue` takes, so
            // that write starts a new task rather than being missed (or taken twice).
            let more = queue.withLock { queue -> Bool? in
                guard !queue.stopped else { return nil }
                queue.writes.removeFirst()
                if queue.writes.isEmpty { queue.task = nil }
                return !queue.writes.isEmpty
            }
            guard let more, let result else { return }
            for event in result { post(event) }
            if !more { return }
        }
    }

    /// The events of a saved write: saved, then the journal's failure if its line could not be written.
    private func saved(_ written: Written) -> [ConsoleEvent] {
        let saved = ConsoleEvent.storeWriteSaved
        guard let problem = written.journalError.map(Self.journalText) else { return [saved] }
        return [saved, .journalNotWritten(problem)]
    }

    /// `<journal>: <reason>`.
    private static func journalText(_ error: OverrideStoreError) -> String {
        if error.isUnwritable { return "\(error.path): \(error.reason)" }
        return "\(error)"
    }
}
