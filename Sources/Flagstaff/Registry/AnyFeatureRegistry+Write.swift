import Foundation
import Observation

/// The registry's one mutation entry point, ``AnyFeatureRegistry/mutate(_:)``, and the write every setter, the
/// command-line tool and the console (one key or every marked member) make through it,
/// ``AnyFeatureRegistry/write(_:policy:members:parameters:)``.
extension AnyFeatureRegistry {
    /// Runs `body` as one change to the registry, serialised with every other: under the registry's write lock, the
    /// app's writes still pending (``writeFromApp(_:for:)``) written to the store first (so that changes reach it in
    /// the order they were made); `body` writes the store and applies what it gives through `mutation`
    /// (``RegistryMutation/commit(members:_:)``); subscribers and observers are told once the lock is released.
    ///
    /// Every change to the store and to what the members hold goes through here: a write, an undo or redo, the
    /// doctor's repair, a reload, an expiry, a link's values.
    /// - Returns: `body`'s result.
    /// - Throws: `body`'s error; what it committed before throwing stays committed (and is notified).
    package func mutate<Outcome>(_ body: (inout RegistryMutation) throws -> Outcome) rethrows -> Outcome {
        var finishPending: @Sendable () -> Void = {}
        var mutation = RegistryMutation(registry: self)
        defer {
            finishPending()
            // Members queued for Observation are announced with a notice (``notify(_:)``), by the thread that made
            // the change: a mutation that notifies nothing (the app's writes drained in the background) leaves them
            // to it, so a setter's caller finds its observers told when the setter returns.
            announceStoreError()
            for notice in mutation.notices { notify(notice) }
        }
        return try core.writes.withLock { _ in
            finishPending = writePendingAppWrites()
            return try body(&mutation)
        }
    }

    /// Writes a change in one store write (one undo step), serialised with every other write, then applies the new
    /// contents and notifies subscribers. Values are not checked here: callers check them against their members
    /// first (``setOverrideValues(_:expiresAt:)``), or know them valid (on/off for the console's flags).
    /// - Parameters:
    ///   - change: the keys and what to do to each.
    ///   - policy: whether members whose declaration already gives them the value asked get an override anyway.
    ///   - members: the members of `change`'s keys, when the caller has them in the same byte order (the console's
    ///     marked members): the change is then applied to them without looking their keys up.
    ///   - parameters: what the journal records, the repair, the wait for the lock.
    /// - Returns: what changed (always given), how many members were left at their default, the journal's outcome.
    /// - Throws: the store's error (kept as ``storeError``); on error nothing changes.
    @discardableResult
    package func write(
        _ change: OverrideChange, policy: OverrideWritePolicy, members: WrittenMembers? = nil,
        parameters: WriteParameters = WriteParameters()
    ) throws -> WriteReceipt {
        try mutate { mutation in
            var change = change
            var skipped = 0
            if policy == .skipDefaults { (change, skipped) = skippingDefaults(change, members: members) }
            guard !change.isEmpty else {
                var nothing = WriteReceipt(snapshot: storeSnapshot, revision: nil, changes: [])
                nothing.skippedAtDefault = skipped
                return nothing
            }
            let before = storeSnapshot
            var receipt = try mutation.commit(members: members) { store, known in
                try store.write(change, known: known, parameters: parameters)
            }
            if receipt.changes == nil {
                receipt.changes = Self.differences(of: change, from: before, to: receipt.snapshot)
            }
            receipt.skippedAtDefault = skipped
            return receipt
        }
    }

    /// The store's contents as last read or written, expired overrides included, with the app's pending writes on
    /// top: what the members hold.
    package var storeSnapshot: StoreSnapshot { core.state.withLock { $0.storeSnapshot } }

    /// Whether `member` has `value` without an override from its declaration alone (a static default, no remote
    /// binding): an override of `value` would change nothing, in any process, ever. A member whose value without
    /// an override comes from a remote source, a dynamic rule or a build target can change (or differs in the
    /// app from what a manifest says): an override pins it, so it is written.
    package static func declarationGives(_ value: OverrideValue, to member: AnyFeature) -> Bool {
        guard member.kind == .static else { return false }
        if let flag = member as? AnyFlag { return value == (flag.computedDefault ? .on : .off) }
        if let setting = member as? any RemoteBindableSetting, setting.remoteBinding != nil { return false }
        return member.valueWithoutOverride == value
    }

    /// `change` without the members its values would not change (``OverrideWritePolicy/skipDefaults``): a member
    /// whose declaration gives it the value asked is left out when it has no override, and has its override
    /// removed when it has one. Keys this registry does not declare are written as asked.
    /// - Returns: the change to write, and how many members were left out.
    private func skippingDefaults(_ change: OverrideChange, members: WrittenMembers?) -> (OverrideChange, Int) {
        // A stored entry the registry ignores (not valid for its member) is not an override of the member; it is
        // replaced by a removal too.
        let ignored = core.state.withLock { $0.valueProblems.isEmpty ? nil : $0.storeSnapshot.overrides }
        var cursor = members?.cursor(from: nil)
        var keys: [String] = []
        var edits: [OverrideEdit] = []
        keys.reserveCapacity(change.count)
        edits.reserveCapacity(change.count)
        var skipped = 0
        for (key, edit) in zip(change.keys, change.edits) {
            guard case .set(let value) = edit, let member = cursor?.member(forKey: key) ?? feature(forKey: key),
                Self.declarationGives(value, to: member)
            else {
                keys.append(key)
                edits.append(edit)
                continue
            }
            if member.isOverridden || ignored?[key] != nil {
                keys.append(key)
                edits.append(.remove)
            } else {
                skipped += 1
            }
        }
        var result = OverrideChange(sortedKeys: keys, edits: edits)
        result.expiries = change.expiries
        return (result, skipped)
    }

    /// What a write changed, compared key by key: for a store that could not tell (another process wrote in
    /// between, or it is not a ``RevisionedOverrideStore``).
    private static func differences(of change: OverrideChange, from before: StoreSnapshot, to after: StoreSnapshot)
        -> [StoreSnapshot.ValueChange]
    {
        change.keys.compactMap { key in
            let old = before.overrides[key]
            let new = after.overrides[key]
            let entry = StoreSnapshot.ValueChange(
                key: key, old: old, new: new, oldExpiresAt: old == nil ? nil : before.expiries[key]?.expiresAt,
                newExpiresAt: new == nil ? nil : after.expiries[key]?.expiresAt)
            return entry.changesSomething ? entry : nil
        }
    }

    /// Sorts the members in the byte order of their keys now, if not yet done, so that the first
    /// ``writeOnOffValue(_:toMembers:)`` does not (the console calls this in the background as it starts).
    package func prepareForBulkChanges() {
        _ = core.keyTable.featuresInByteOrder()
    }

    /// Gives every member of `members` the on/off value of `edit`, or removes their overrides, in one store write
    /// (one undo step), with `policy` (the console's marked members: ``OverrideWritePolicy/skipDefaults``).
    ///
    /// The members are taken in the byte order of their keys (sorted once per member list and kept), so the
    /// change needs no sort and is applied to these members without looking a key up. `on`/`off` must only be
    /// given to on/off members (flags and Boolean settings, which all accept them); the caller checked that (this
    /// is not checked again). Ordinals this registry does not have are ignored.
    /// - Parameters:
    ///   - edit: `.set(.on)`, `.set(.off)`, or `.remove`.
    ///   - members: members by ``AnyFeature/registryOrdinal``.
    ///   - policy: whether members whose declaration already gives them the value get an override anyway.
    /// - Returns: what changed, and how many members were skipped.
    /// - Throws: the store's error; on error nothing changes.
    @discardableResult
    package func writeOnOffValue(
        _ edit: OverrideEdit, toMembers members: MemberSet, policy: OverrideWritePolicy,
        parameters: WriteParameters = WriteParameters()
    ) throws -> WriteReceipt {
        assert(edit == .remove || edit == .set(.on) || edit == .set(.off), "not an on/off change")
        let written = WrittenMembers(members, of: core.keyTable.featuresInByteOrder())
        return try write(
            OverrideChange(sortedKeys: written.keys, edit: edit), policy: policy,
            members: written, parameters: parameters)
    }
}

/// Whether a write gives members the value asked even when their declaration already gives it to them.
package enum OverrideWritePolicy: Sendable {
    /// Every value is written as asked: a change that names its keys (`set KEY VALUE`, a setter, an import).
    case writeEveryValue
    /// A member whose declaration gives it the value asked (``AnyFeatureRegistry/declarationGives(_:to:)``) gets
    /// no override, and loses the one it had: a change to many members at once (`set --match`, the console's
    /// marked members), so that ordinary use leaves nothing for the doctor to report.
    case skipDefaults
}

/// The members a bulk write changes: their keys in byte order (each once) and the member of each.
package struct WrittenMembers: Sendable {
    var keys: [String] = []
    var features: [AnyFeature] = []

    /// The members of `set`, taken from all members in byte order; of members sharing a key, the first.
    init(_ set: MemberSet, of all: MembersInByteOrder) {
        keys.reserveCapacity(set.count)
        features.reserveCapacity(set.count)
        for (position, ordinal) in all.ordinals.enumerated() where set.contains(Int(ordinal)) {
            let key = all.keys[position]
            if let last = keys.last, last == key { continue }
            keys.append(key)
            features.append(all.features[position])
        }
    }

    /// A reader that finds members by key when asked for keys in byte order, from `key` on (a binary search) or
    /// from the first.
    func cursor(from key: String?) -> Cursor {
        guard let key else { return Cursor(members: self) }
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if ByteOrderSort.compare(keys[middle], key) < 0 { low = middle + 1 } else { high = middle }
        }
        return Cursor(members: self, position: low)
    }

    /// Finds members by keys asked in byte order, moving forward only.
    struct Cursor {
        let members: WrittenMembers
        var position = 0

        /// The member with `key`, or `nil` when none of the remaining ones has it.
        mutating func member(forKey key: String) -> AnyFeature? {
            let keys = members.keys
            while position < keys.count, keys[position] != key {
                guard ByteOrderSort.compare(keys[position], key) < 0 else { return nil }
                position += 1
            }
            return position < keys.count ? members.features[position] : nil
        }
    }
}

/// The app's writes: ``AnyFlag/override`` and ``Setting/overriddenValue`` set from app code (a SwiftUI `Toggle` on
/// the main thread) are put in force in memory at once and written to the store on the registry's write queue, in
/// order, a burst in one write (``PendingAppWrites``). The throwing API (``setOverrideValues(_:expiresAt:)`` and the rest, what
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
