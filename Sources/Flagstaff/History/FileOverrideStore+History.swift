import Foundation

/// What an undo or a redo did.
package struct UndoOutcome: Sendable {
    /// The change undone or redone.
    package var target: HistoryChange
    /// The write that undid or redid it (journaled too: ``WriteReceipt/changeID``).
    package var receipt: WriteReceipt

    /// The id of the change the undo or redo wrote.
    package var change: String? { receipt.changeID }
    /// Every override after it.
    package var overrides: [String: OverrideValue] { receipt.snapshot.overrides }
    /// The expiry of overrides that have one, after the change.
    package var expiries: [String: OverrideExpiry] { receipt.snapshot.expiries }
}

/// Undo and redo on a file store's journal.
extension FileOverrideStore {
    /// Reverts the newest change still in force (see ``UndoPlanner``), in one write journaled as `undo`.
    ///
    /// Runs under the store's lock: the history and the file are read and written as one step. Refuses,
    /// changing nothing, when a key of the change no longer holds the value the change gave it (naming the
    /// later change that set it, or saying it was changed outside the journal).
    /// - Returns: the change undone and the new contents.
    /// - Throws: ``HistoryError`` (nothing to undo, a later change in the way), or the store's error.
    package func undo() throws -> UndoOutcome {
        try revert(redo: false, known: nil, parameters: WriteParameters())
    }

    /// Re-applies the change most recently undone, in one write journaled as `redo`, with the same checks as
    /// ``undo()``.
    /// - Returns: the change redone and the new contents.
    /// - Throws: ``HistoryError``, or the store's error.
    package func redo() throws -> UndoOutcome {
        try revert(redo: true, known: nil, parameters: WriteParameters())
    }

    /// ``undo()`` or ``redo()``, checking the values it would write with `validate` first (under the lock): a
    /// hand-edited journal can hold values no member accepts. On error nothing is written.
    /// - Parameters:
    ///   - redo: whether to redo (else undo).
    ///   - known: the revision of the contents the caller holds (``modify(known:parameters:_:)``), or `nil`.
    ///   - parameters: the wait for the lock (the journal's note is the undo's or redo's own).
    ///   - validate: throws for changes that may not be written (a registry's check, as `set` makes it).
    package func revert(
        redo: Bool, known: UInt64?, parameters: WriteParameters,
        validate: ([String: OverrideEdit]) throws -> Void = { _ in }
    ) throws -> UndoOutcome {
        guard journalOptions != nil else { throw HistoryError(code: .noJournal) }
        var target: HistoryChange?
        let result = try modify(known: known, parameters: parameters) { current, note in
            guard let journal = try self.journal() else { throw HistoryError(code: .noJournal) }
            let contents = journal.read()
            // Changes the journal cannot show may be the newest: nothing is planned from the rest.
            if let unreadable = contents.unreadableFiles.first {
                throw HistoryError(
                    code: .unreadableJournal(
                        action: redo ? "redo" : "undo", file: unreadable.file,
                        reason: String(unreadable.reason.trimmingPrefix("cannot read: "))))
            }
            let history = contents.changes
            guard let plan = redo ? UndoPlanner.redo(history) : UndoPlanner.undo(history) else {
                throw HistoryError(code: redo ? .nothingToRedo : .nothingToUndo)
            }
            guard plan.target.isFullyJournaled else {
                throw HistoryError(
                    code: .partlyJournaled(
                        action: redo ? "redo" : "undo", target: "the \(plan.target.summary)",
                        journaled: plan.target.entries.count, written: plan.target.writtenKeyCount))
            }
            // The first key, in key order, that is no longer as the change left it (found without sorting every key).
            let moved = plan.expected.compactMap { key, expected in current[key] != expected.value ? key : nil }
            if let key = moved.min() {
                let now = current[key].map { "now \($0.summary)" } ?? "now not overridden"
                let detail: String
                if let later = UndoPlanner.laterChange(of: key, after: plan.target, in: history) {
                    detail = "was changed since by the \(later.summary) (\(now))"
                } else {
                    detail = "was changed outside the history (\(now))"
                }
                throw HistoryError(
                    code: .conflict(
                        action: redo ? "redo" : "undo", target: "the \(plan.target.summary)", key: key,
                        detail: detail))
            }
            target = plan.target
            note.origin = redo ? .redo : .undo
            note.undoes = redo ? nil : plan.target.id
            note.redoes = redo ? plan.target.id : nil
            note.profile = nil
            // Values go back with their expiry; one whose expiry has passed is not put back.
            let now = clock.now()
            var changes = plan.changes
            var expiries: [String: OverrideExpiry] = [:]
            for (key, expiresAt) in plan.expiresAt where changes[key] != nil {
                if expiresAt <= now {
                    changes[key] = .remove
                } else {
                    expiries[key] = OverrideExpiry(expiresAt: expiresAt, setAt: now)
                }
            }
            do {
                try validate(changes)
            } catch let invalid as InvalidOverrideValue {
                var refusal = invalid
                refusal.reason += " (\(redo ? "redoing" : "undoing") the \(plan.target.summary)); nothing was changed"
                throw refusal
            }
            return OverrideChange(changes, expiries: expiries)
        }
        guard let target else { throw HistoryError(code: redo ? .nothingToRedo : .nothingToUndo) }
        return UndoOutcome(target: target, receipt: result)
    }
}
