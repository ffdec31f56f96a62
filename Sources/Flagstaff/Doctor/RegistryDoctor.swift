import Foundation

/// The store doctor on a registry's own store: examines it (``StoreDoctor``) and fixes it through the registry's one
/// mutation entry point, so its members and subscribers see the fix at once.
package struct RegistryDoctor {
    /// The registry whose store is examined.
    package let registry: AnyFeatureRegistry

    /// The doctor of `registry`'s store.
    package init(_ registry: AnyFeatureRegistry) {
        self.registry = registry
    }

    /// Examines the registry's store as last loaded (expired overrides included) with ``StoreDoctor``, judging
    /// expiry by the registry's ``RegistryOptions/wallClock``.
    ///
    /// While the store cannot be read (``storeError``), it looks empty here: check ``storeError`` first.
    /// - Returns: the report.
    package func diagnose() -> DoctorReport {
        StoreDoctor.examine(registry, snapshot: registry.storeSnapshot, now: registry.now)
    }

    /// Removes every override the doctor can fix (orphans, no-ops, expired, and, in a ``FileOverrideStore``,
    /// entries it cannot read, which make it refuse every read) in one store write, and applies the result.
    ///
    /// The orphans and no-ops removed are journaled as one change with origin `doctor` (one undo step where the
    /// store keeps a history). Expired overrides are removed by the same write the way every write removes them,
    /// journaled with origin `expiry`, which undo never restores (an expired override brought back would be
    /// permanent). For a ``FileOverrideStore`` the store is examined again under its lock, so an entry another
    /// process changed since ``diagnose()`` is judged by its new value. Nothing is written when nothing is
    /// fixable.
    /// - Returns: what was fixed and what remains.
    /// - Throws: the store's error (corrupt, unreadable or unwritable file, lock not released in time); on error
    ///   nothing changes.
    @discardableResult
    package func fix() throws -> DoctorFixOutcome {
        try registry.mutate { mutation in
            // The app's writes pending were written first (``mutate(_:)``): examined with the rest.
            var fixed: [DoctorFinding] = []
            let receipt = try mutation.commit { store, known in
                guard let fileStore = registry.fileStore else {
                    let report = StoreDoctor.examine(registry, snapshot: try store.loadSnapshot(), now: registry.now)
                    fixed = report.fixable
                    return try store.write(
                        OverrideChange(report.fixChanges), known: known, parameters: WriteParameters(origin: .doctor))
                }
                // Entries the store cannot read (which make it refuse every read) are read to be removed.
                let repair = StoreRepair(.all)
                let parameters = WriteParameters(origin: .doctor, repair: repair)
                return try fileStore.modify(known: known, parameters: parameters) { live, _ in
                    // `live` leaves out what this write removes as expired; the file (read under the same lock) still
                    // has those entries and their expiry.
                    let stored = try fileStore.loadRevisioned(repair: repair).snapshot
                    var expired: [String: Date] = [:]
                    for key in stored.overrides.keys where live[key] == nil {
                        expired[key] = stored.expiries[key]?.expiresAt
                    }
                    let unreadable = repair.entries
                    var overrides = stored.overrides
                    for entry in unreadable { overrides[entry.key] = nil }
                    let report = StoreDoctor.examine(registry, overrides: overrides, expired: expired)
                    fixed =
                        unreadable.map { StoreDoctor.unreadableEntry(key: $0.key, problem: $0.problem) }
                        + report.fixable
                    var changes = report.fixChanges.filter { live[$0.key] != nil }
                    for entry in unreadable { changes[entry.key] = .remove }
                    return OverrideChange(changes)
                }
            }
            let remaining = StoreDoctor.examine(registry, snapshot: receipt.snapshot, now: registry.now)
            return DoctorFixOutcome(fixed: fixed, remaining: remaining, journalError: receipt.journalError)
        }
    }
}

/// What ``RegistryDoctor/fix()`` did.
package struct DoctorFixOutcome: Sendable, Hashable {
    /// The findings the store change repaired, as found when it was made.
    package var fixed: [DoctorFinding]
    /// The findings after it (those without a fix, and information).
    package var remaining: DoctorReport
    /// Why the fix was saved without its journal lines, or `nil`.
    package var journalError: OverrideStoreError?
}

extension ChangeOrigin {
    /// The store doctor's fixes (`flagstaff doctor --fix`).
    package static let doctor: ChangeOrigin = "doctor"
}
