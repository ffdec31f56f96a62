import Foundation

/// Overrides that expire (``OverrideExpiry``).
extension AnyFeatureRegistry {
    /// The expiry of the override in force under `key`, or `nil` when it is permanent or there is none.
    /// - Parameter key: a store key.
    public func overrideExpiry(forKey key: String) -> OverrideExpiry? {
        core.state.withLock { state in
            state.storedOverrides[key] == nil ? nil : state.storeSnapshot.expiries[key]
        }
    }

    /// Overrides still in the store whose expiry time has passed: no longer applied, removed by the next write
    /// to the store. By key.
    public var expiredOverrides: [String: OverrideValue] {
        core.state.withLock { state in
            state.storeSnapshot.overrides.filter { state.storedOverrides[$0.key] == nil }
        }
    }

    /// The expiry of each override in ``expiredOverrides``.
    package var expiredOverrideExpiries: [String: OverrideExpiry] {
        core.state.withLock { state in
            state.storeSnapshot.expiries.filter {
                state.storeSnapshot.overrides[$0.key] != nil && state.storedOverrides[$0.key] == nil
            }
        }
    }

    /// The registry's current date and time (its ``RegistryOptions/wallClock``, never going backwards): what
    /// expiry is measured against.
    package var now: Date { core.wallClock.now() }

    /// Sets overrides that stop applying at `expiresAt` (or permanent ones, for `nil`) in one store write: all or
    /// nothing, each value checked against the member under its key, as ``setOverrideValues(_:)``. Removals
    /// (`nil` values) ignore the expiry.
    /// - Parameters:
    ///   - changes: keys and their new values, `nil` to remove.
    ///   - expiresAt: when the overrides set stop applying; must be later than ``now``.
    /// - Throws: ``InvalidOverrideValue`` for an invalid value or an expiry not in the future, or the store's
    ///   error (also when the store keeps no expiry times); on error nothing changes.
    public func setOverrideValues(_ changes: [String: OverrideValue?], expiresAt: Date?) throws {
        try writeOverrideValues(changes, expiresAt: expiresAt)
    }

    /// Checks values and an expiry as ``setOverrideValues(_:expiresAt:)`` does, then writes them through
    /// ``write(_:policy:members:parameters:)`` with `policy` and `parameters`.
    /// - Returns: what changed, and how many members were left at their default.
    /// - Throws: as ``setOverrideValues(_:expiresAt:)``.
    @discardableResult
    package func writeOverrideValues(
        _ changes: [String: OverrideValue?], expiresAt: Date? = nil, policy: OverrideWritePolicy = .writeEveryValue,
        parameters: WriteParameters = WriteParameters()
    ) throws -> WriteReceipt {
        var change = OverrideChange(changes)
        if let expiresAt {
            let now = self.now
            let set = zip(change.keys, change.edits).compactMap { key, edit in edit.value.map { (key, $0) } }
            if let (first, value) = set.first {
                if expiresAt <= now {
                    throw InvalidOverrideValue(
                        key: first, value: value,
                        reason:
                            "the expiry \(CivilDate.timestampText(expiresAt)) is not in the future (now \(CivilDate.timestampText(now)))"
                    )
                }
                if !OverrideExpiry.storableRange.contains(expiresAt) {
                    throw InvalidOverrideValue(
                        key: first, value: value,
                        reason:
                            "the expiry \(CivilDate.timestampText(expiresAt)) is outside the times a store can hold (\(OverrideExpiry.storableRangeText))"
                    )
                }
            }
            let expiry = OverrideExpiry(expiresAt: expiresAt, setAt: now)
            change.expiries = Dictionary(uniqueKeysWithValues: set.map { ($0.0, expiry) })
        }
        try validate(changes)
        return try write(change, policy: policy, parameters: parameters)
    }

    /// Wakes at `deadline` (the next expiry) to republish the overrides in force; `nil` stops the timer.
    func scheduleExpiryTimer(at deadline: Date?) {
        core.expiryTimer.withLock { timer in
            if timer?.deadline == deadline { return }
            timer?.task.cancel()
            guard let deadline else {
                timer = nil
                return
            }
            let clock = core.clock
            let wallClock = core.wallClock
            let task = Task.detached(priority: .utility) { [weak self] in
                if let wait = AnyFeatureRegistry.expiryWait(until: deadline, now: wallClock.now()) {
                    do {
                        try await clock.sleep(for: wait)
                    } catch {
                        return  // cancelled: a new deadline, or the registry is gone
                    }
                }
                self?.expireDueOverrides(deadline: deadline)
            }
            timer = (deadline, task)
        }
    }

    /// How long the expiry timer sleeps before `deadline`: `nil` when it is due, else at most a century (a longer
    /// wait in nanoseconds would pass `Int64`; woken early, the registry re-applies its snapshot, which sets the
    /// timer again).
    static func expiryWait(until deadline: Date, now: Date) -> Duration? {
        let wait = min(deadline.timeIntervalSince(now), 100 * 365 * 86_400)
        guard wait > 0 else { return nil }
        return .nanoseconds(Int64((wait * 1e9).rounded(.up)))
    }

    /// Re-applies the last store contents at the current time, so overrides whose time has come stop applying,
    /// and notifies subscribers.
    private func expireDueOverrides(deadline: Date) {
        core.expiryTimer.withLock { timer in
            if timer?.deadline == deadline { timer = nil }
        }
        mutate { $0.reapply() }
    }
}
