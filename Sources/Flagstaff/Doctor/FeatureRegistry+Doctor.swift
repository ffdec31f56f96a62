/// The store doctor on a registry's own store.
extension FeatureRegistry {
    /// Examines the registry's store as last loaded (``storedOverrides``) with ``StoreDoctor``.
    /// - Returns: the report.
    public func diagnoseStore() -> DoctorReport {
        StoreDoctor.examine(self, overrides: storedOverrides)
    }

    /// Removes every override the doctor can fix (orphans, no-ops, expired) in one store write, journaled with
    /// origin `doctor` (one undo step where the store keeps a history), and applies the result.
    ///
    /// For a ``FileOverrideStore`` the store is examined again under its lock, so an entry another process
    /// changed since ``diagnoseStore()`` is judged by its new value. Nothing is written when nothing is fixable.
    /// - Returns: what was fixed and what remains.
    /// - Throws: the store's error (corrupt, unreadable or unwritable file, lock not released in time); on error
    ///   nothing changes.
    @discardableResult
    public func fixStore() throws -> DoctorFixOutcome {
        let (outcome, change) = try core.writes.withLock { _ -> (DoctorFixOutcome, FeatureChange?) in
            var fixed: [DoctorFinding] = []
            let overrides: [String: OverrideValue]
            do {
                if let fileStore = store as? FileOverrideStore {
                    overrides = try fileStore.modify { current, note in
                        let report = StoreDoctor.examine(self, overrides: current)
                        fixed = report.fixable
                        note.origin = .doctor
                        return report.fixChanges
                    }.overrides
                } else {
                    let report = StoreDoctor.examine(self, overrides: try store.load())
                    fixed = report.fixable
                    overrides = try ChangeOrigin.$current.withValue(.doctor) { try store.update(report.fixChanges) }
                }
            } catch {
                recordStoreError(error)
                throw error
            }
            core.state.withLock { $0.storeError = nil }
            let change = apply(overrides, origin: .local)
            return (DoctorFixOutcome(fixed: fixed, remaining: StoreDoctor.examine(self, overrides: overrides)), change)
        }
        if let change { notify(change) }
        return outcome
    }
}

/// What ``FeatureRegistry/fixStore()`` did.
public struct DoctorFixOutcome: Sendable, Hashable {
    /// The findings the store change repaired, as found when it was made.
    public var fixed: [DoctorFinding]
    /// The findings after it (those without a fix, and information).
    public var remaining: DoctorReport
}

extension ChangeOrigin {
    /// The store doctor's fixes (`flagstaff doctor --fix`).
    public static let doctor: ChangeOrigin = "doctor"
}
