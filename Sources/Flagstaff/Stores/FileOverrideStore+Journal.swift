import Foundation

/// The change journal beside the store file.
extension FileOverrideStore {
    /// The journal of this store (beside the file the store's path names, following symbolic links), or `nil`
    /// when the store keeps none.
    /// - Throws: `OverrideStoreError.unwritable` when the path is a symbolic link that cannot be followed.
    package func journal() throws -> ChangeJournal? {
        guard let journalOptions else { return nil }
        return ChangeJournal(storePath: try resolvedTarget(), options: journalOptions)
    }

    /// The last error appending to the journal (the change itself was written), or `nil` after a successful
    /// append.
    package var journalError: OverrideStoreError? { lastJournalError.withLock { $0 } }

    /// Appends the change just written to the journal (the caller holds the lock). A failure is kept in
    /// ``journalError``, never thrown: the journal never blocks a change.
    /// - Returns: the change's id, or `nil` when the store keeps no journal.
    /// - Parameter changes: in the byte order of their keys (lines are written in that order).
    func journal(_ changes: [StoreSnapshot.ValueChange], note annotation: ChangeAnnotation, target: String) -> String? {
        guard let journalOptions else { return nil }
        let id = ProcessIdentity.newChangeID()
        let identity = ProcessIdentity.current
        let origin = annotation.origin ?? ChangeOrigin.current ?? journalOptions.origin
        let shared = JournalEntry(
            time: clock.now(), change: id, key: "", old: nil, new: nil, origin: origin, user: identity.user,
            pid: identity.pid, command: identity.command, profile: annotation.profile, undoes: annotation.undoes,
            redoes: annotation.redoes, changeKeyCount: changes.count > 1 ? changes.count : nil)
        let order = Array(changes.indices)
        do {
            try ChangeJournal(storePath: target, options: journalOptions).append { emit in
                try JournalLine.encode(changes, order: order, shared: shared, emit: emit)
            }
            lastJournalError.withLock { $0 = nil }
        } catch {
            lastJournalError.withLock {
                $0 = error as? OverrideStoreError ?? .unwritable(path: target, reason: "\(error)")
            }
        }
        return id
    }
}
