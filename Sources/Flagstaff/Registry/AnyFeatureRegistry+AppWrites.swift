import Foundation
import Observation

/// The app's writes: ``AnyFlag/override`` and ``Setting/overriddenValue`` set from app code (a SwiftUI `Toggle` on
/// the main thread) are put in force in memory at once and written to the store on the registry's write queue, in
/// order, a burst in one write (``PendingAppWrites``). The throwing API (``setOverrideValues(_:)`` and the rest, what
/// the console and the command-line tool call) writes at once and throws the store's error.
extension AnyFeatureRegistry {
    /// Waits until every override set so far through ``AnyFlag/override`` or ``Setting/overriddenValue`` is in the
    /// store (written to its file and journaled, for a ``FileOverrideStore``), or its write has failed.
    ///
    /// Those setters return as soon as the new value is in force in this process (reads, Observation and
    /// ``onChange(_:)`` subscribers see it before the setter returns); the store is written a moment later, off the
    /// calling thread. Call `flush()` where the value must be durable: before the process exits, when the app moves
    /// to the background, before another process reads the store. Writes still pending when the process ends are
    /// lost.
    /// - Throws: the store's error, when a write this call waited for failed, or when the last write failed before
    ///   this call and no earlier `flush()` reported it (the same error is in ``storeError``; the members whose write
    ///   failed went back to the store's values).
    public func flush() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let idle: (Bool, (any Error)?) = core.state.withLock { state in
                if state.appWrites.isIdle { return (true, state.appWrites.takeUnreportedFailure()) }
                state.appWrites.wait(continuation)
                return (false, nil)
            }
            switch idle {
            case (true, let failure?): continuation.resume(throwing: failure)
            case (true, nil): continuation.resume()
            case (false, _): break
            }
        }
    }

    /// Puts an app's override in force at once and queues its write (the non-throwing setters). The value is valid
    /// for `member` (the caller checked).
    func writeFromApp(_ value: OverrideValue?, for member: AnyFeature) {
        let now = core.wallClock.now()
        let (changed, nextExpiry, startDrain) = core.state.withLock { state in
            state.appWrites.record(key: member.key, value: value, time: now)
            let startDrain = !state.appWrites.isDraining
            state.appWrites.isDraining = true
            // The store's contents are unchanged: the revision is kept for the write that follows.
            let (changed, nextExpiry) = applyHoldingState(
                state.storeContents, at: now, origin: .local, written: (nil, state.storeRevision), members: nil,
                &state)
            return (changed, nextExpiry, startDrain)
        }
        if startDrain { core.appWriteQueue.async { self.drainAppWrites() } }
        if let notice = finishApplying(changed, nextExpiry: nextExpiry, origin: .local) { notify(notice) }
    }

    /// Writes the app's pending writes until there are none (on ``RegistryCore/appWriteQueue``).
    private func drainAppWrites() {
        while true {
            mutate { _ in }  // writes the pending writes first, as every change does
            let idle = core.state.withLock { state in
                if state.appWrites.steps.isEmpty { state.appWrites.isDraining = false }
                return !state.appWrites.isDraining
            }
            if idle { return }
        }
    }

    /// Writes every app write not yet taken, in one store write (the caller holds ``RegistryCore/writes``): each key
    /// gets its last value, and the journal every call. On error the store's error goes to ``storeError`` and
    /// ``lastRefusedChange``, and the keys go back to the store's values.
    /// - Returns: what to do once the caller has released ``RegistryCore/writes``: notify subscribers and resume the
    ///   ``flush()`` calls whose writes have finished.
    func writePendingAppWrites() -> @Sendable () -> Void {
        guard let (change, through) = core.state.withLock({ $0.appWrites.takeBatch() }) else { return {} }
        let known = core.state.withLock { $0.storeRevision }
        let write: WriteReceipt
        do {
            // The app's own writes, with no parameters of the change that writes them first (a profile applied, an
            // undo, a repair): journaled as the app's.
            write = try store.write(change, known: known, parameters: WriteParameters())
        } catch {
            let now = core.wallClock.now()
            let (done, changed, nextExpiry) = core.state.withLock { state in
                let done = state.appWrites.finish(through: through, failure: error)
                state.lastRefusedChange = RefusedChange(key: change.keys.joined(separator: ", "), reason: "\(error)")
                let (changed, nextExpiry) = applyHoldingState(
                    state.storeContents, at: now, origin: .local, written: (nil, state.storeRevision), members: nil,
                    &state)
                return (done, changed, nextExpiry)
            }
            setStoreError(error)
            let notice = finishApplying(changed, nextExpiry: nextExpiry, origin: .local)
            return {
                self.announceStoreError()
                if let notice { self.notify(notice) }
                for waiter in done { waiter.resume() }
            }
        }
        let now = core.wallClock.now()
        // In one hold of the lock: a setter never sees the written keys gone from the pending writes and not yet in
        // the store's contents.
        let (done, changed, nextExpiry) = core.state.withLock { state in
            let done = state.appWrites.finish(through: through, failure: nil)
            let (changed, nextExpiry) = applyHoldingState(
                write.snapshot, at: now, origin: .local,
                written: (write.changes, write.revision),
                members: nil, &state)
            return (done, changed, nextExpiry)
        }
        setStoreError(nil)
        let notice = finishApplying(changed, nextExpiry: nextExpiry, origin: .local)
        return {
            self.announceStoreError()
            if let notice { self.notify(notice) }
            for waiter in done { waiter.resume() }
        }
    }

    /// Sets ``storeError``. The Observation framework is told by the next ``announceStoreError()``, once the caller
    /// has released the registry's locks (an observer may read the registry).
    func setStoreError(_ error: (any Error)?) {
        core.state.withLock { state in
            if state.storeError != nil || error != nil { state.storeErrorChanged = true }
            state.storeError = error
        }
    }

    /// Tells the Observation framework that ``storeError`` changed, if it did since the last call. Called with no
    /// lock of the registry held.
    func announceStoreError() {
        let changed = core.state.withLock { state in
            defer { state.storeErrorChanged = false }
            return state.storeErrorChanged
        }
        if changed { core.registrar.withMutation(of: self, keyPath: \.storeError) {} }
    }
}

/// Observation: ``AnyFeatureRegistry/storeError`` is tracked (a SwiftUI view that shows it is updated when a write
/// fails, and when the next one succeeds). The members are observable on their own (``AnyFeature``).
extension AnyFeatureRegistry: Observable {}
