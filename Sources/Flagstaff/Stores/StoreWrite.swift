import Foundation

/// How one store write is made, given by its caller with the write (never carried by the task that makes it):
/// what the journal records, which unreadable entries it may remove, how long it waits for another writer.
package struct WriteParameters: Sendable {
    /// What the journal records with the change: its origin (else the store's default, ``JournalOptions/origin``),
    /// the profile applied, the change undone or redone.
    package var note: ChangeAnnotation
    /// Unreadable entries the write may read in order to remove them (`flagstaff reset`, the doctor's fix), or
    /// `nil`: an unreadable entry makes the store refuse the write.
    package var repair: StoreRepair?
    /// How long to wait for another writer's lock, instead of the store's own ``FileOverrideStore/lockWait`` (the
    /// console gives up at once and retries later), or `nil`.
    package var lockWait: FileOverrideStore.LockWait?

    /// Parameters of a write.
    /// - Parameters:
    ///   - origin: the origin the journal records (a shorthand for `note.origin`).
    ///   - note: the rest of what the journal records.
    ///   - repair: unreadable entries the write may remove.
    ///   - lockWait: the wait for another writer's lock.
    package init(
        origin: ChangeOrigin? = nil, note: ChangeAnnotation = ChangeAnnotation(), repair: StoreRepair? = nil,
        lockWait: FileOverrideStore.LockWait? = nil
    ) {
        self.note = note
        if let origin { self.note.origin = origin }
        self.repair = repair
        self.lockWait = lockWait
    }
}

/// What one store write did: the store's answer to a write, and the registry's (``AnyFeatureRegistry``) once it
/// has applied it.
package struct WriteReceipt: Sendable {
    /// The store's contents after the write, expired overrides the write removed left out.
    package var snapshot: StoreSnapshot
    /// The revision of those contents (``RevisionedOverrideStore``), or `nil` for a store that keeps none.
    package var revision: UInt64?
    /// Every key whose value or expiry changed (overrides removed as expired first, then the change's, each in key
    /// order), when the write started from the contents of the revision its caller knew; else `nil` (the caller
    /// compares). Through the registry, always given.
    package var changes: [StoreSnapshot.ValueChange]?
    /// The journal's id of the change, or `nil` (nothing changed, or the store keeps no journal).
    package var changeID: String?
    /// Why the change was saved without its journal lines, or `nil`. The journal never blocks a change; `history`
    /// and `undo` will not see this one.
    package var journalError: OverrideStoreError?
    /// Members left without an override because their declaration already gives them the value asked
    /// (``OverrideWritePolicy/skipDefaults``; through the registry only).
    package var skippedAtDefault = 0

    /// A receipt.
    package init(
        snapshot: StoreSnapshot, revision: UInt64?, changes: [StoreSnapshot.ValueChange]?, changeID: String? = nil,
        journalError: OverrideStoreError? = nil
    ) {
        self.snapshot = snapshot
        self.revision = revision
        self.changes = changes
        self.changeID = changeID
        self.journalError = journalError
    }
}
