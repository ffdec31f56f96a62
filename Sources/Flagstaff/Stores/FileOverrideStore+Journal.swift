import Foundation

/// The change journal beside the store file.
extension FileOverrideStore {
    /// The journal of this store (beside the file the store's path names, following symbolic links), or `nil`
    /// when the store keeps none.
    /// - Throws: `OverrideStoreError.unwritable` when the path is a symbolic link that cannot be followed.
    package func journal() throws -> ChangeJournal? {
        guard let journalOptions else { return nil }
        return ChangeJournal(layout: try layout(), options: journalOptions)
    }

    /// Appends the change just written to the journal (the caller holds the lock). A failure is returned
    /// (the write's receipt carries it, ``WriteReceipt/journalError``), never thrown: the journal never blocks a
    /// change.
    /// - Returns: the change's id (`nil` when the store keeps no journal), and the append's error.
    /// - Parameter changes: in the byte order of their keys (lines are written in that order).
    func journal(_ changes: [StoreSnapshot.ValueChange], note annotation: ChangeAnnotation, layout: StoreLayout)
        -> (id: String?, error: OverrideStoreError?)
    {
        guard let journalOptions else { return (nil, nil) }
        let id = ProcessIdentity.newChangeID()
        let identity = ProcessIdentity.current
        let origin = annotation.origin ?? journalOptions.origin
        let shared = JournalEntry(
            time: clock.now(), change: id, key: "", old: nil, new: nil, origin: origin, user: identity.user,
            pid: identity.pid, command: identity.command, profile: annotation.profile, undoes: annotation.undoes,
            redoes: annotation.redoes, changeKeyCount: changes.count > 1 ? changes.count : nil)
        let order = Array(changes.indices)
        do {
            try ChangeJournal(layout: layout, options: journalOptions).append { emit in
                try JournalLine.encode(changes, order: order, shared: shared, emit: emit)
            }
            return (id, nil)
        } catch {
            return (id, error as? OverrideStoreError ?? .unwritable(path: layout.target, reason: "\(error)"))
        }
    }

    /// Appends the setter calls a write gathered (``OverrideChange/journalSteps``), each as a change of its own at its
    /// own time, in one append (the caller holds the lock). A failure is returned, as for a change.
    /// - Returns: the last change's id (`nil` when the store keeps no journal or `steps` is empty), and the append's
    ///   error.
    func journal(
        steps: [(change: StoreSnapshot.ValueChange, time: Date)], note annotation: ChangeAnnotation, layout: StoreLayout
    ) -> (id: String?, error: OverrideStoreError?) {
        guard let journalOptions, !steps.isEmpty else { return (nil, nil) }
        let identity = ProcessIdentity.current
        let origin = annotation.origin ?? journalOptions.origin
        let entries = steps.map { step in
            JournalEntry(
                time: step.time, change: ProcessIdentity.newChangeID(), key: step.change.key, old: step.change.old,
                new: step.change.new, origin: origin, user: identity.user, pid: identity.pid, command: identity.command,
                profile: annotation.profile, oldExpiresAt: step.change.oldExpiresAt,
                newExpiresAt: step.change.newExpiresAt)
        }
        do {
            try ChangeJournal(layout: layout, options: journalOptions).append(entries)
            return (entries.last?.change, nil)
        } catch {
            return (
                entries.last?.change,
                error as? OverrideStoreError ?? .unwritable(path: layout.target, reason: "\(error)")
            )
        }
    }

    /// The journal's changes for setter calls made one after another on `contents` (``OverrideChange/journalSteps``):
    /// each call's key before and after it (with the expiry the key had before its first call), leaving out calls
    /// that changed nothing (setting the value a key already had).
    static func changes(of steps: [OverrideChange.JournalStep], from contents: StoreSnapshot) -> [(
        change: StoreSnapshot.ValueChange, time: Date
    )] {
        // The last call's edit of each key seen so far.
        var last: [String: OverrideEdit] = [:]
        var result: [(change: StoreSnapshot.ValueChange, time: Date)] = []
        result.reserveCapacity(steps.count)
        for step in steps {
            var entry = StoreSnapshot.ValueChange(key: step.key, old: nil, new: step.edit.value)
            if let edit = last[step.key] {
                entry.old = edit.value
            } else {
                entry.old = contents.overrides[step.key]
                entry.oldExpiresAt = entry.old == nil ? nil : contents.expiries[step.key]?.expiresAt
            }
            last[step.key] = step.edit
            if entry.changesSomething { result.append((entry, step.time)) }
        }
        return result
    }
}
