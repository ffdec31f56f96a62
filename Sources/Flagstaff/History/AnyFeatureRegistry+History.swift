/// Undo and redo through a registry, so its members and subscribers see the result at once.
extension AnyFeatureRegistry {
    /// Undoes the newest change still in force in the registry's store (``FileOverrideStore/undo()``) and
    /// applies the result.
    /// The values written back are checked against their members as ``setOverrideValues(_:)`` checks them.
    /// - Returns: what was undone.
    /// - Throws: ``HistoryError`` (also when the store is not a file store with a journal), ``InvalidOverrideValue``
    ///   naming the key and value the history holds that its member refuses, or the store's error.
    /// - Parameter parameters: the wait for the lock.
    @discardableResult
    package func undoLastChange(parameters: WriteParameters = WriteParameters()) throws -> UndoOutcome {
        try revert { try $0.revert(redo: false, known: $1, parameters: parameters, validate: validate) }
    }

    /// Re-applies the change most recently undone (``FileOverrideStore/redo()``) and applies the result.
    /// The values written are checked against their members as ``setOverrideValues(_:)`` checks them.
    /// - Returns: what was redone.
    /// - Throws: ``HistoryError``, ``InvalidOverrideValue`` (see ``undoLastChange()``), or the store's error.
    /// - Parameter parameters: the wait for the lock.
    @discardableResult
    package func redoLastUndo(parameters: WriteParameters = WriteParameters()) throws -> UndoOutcome {
        try revert { try $0.revert(redo: true, known: $1, parameters: parameters, validate: validate) }
    }

    private func revert(_ action: (FileOverrideStore, UInt64?) throws -> UndoOutcome) throws -> UndoOutcome {
        guard let fileStore = store as? FileOverrideStore else { throw HistoryError(code: .noJournal) }
        return try mutate { mutation in
            var outcome: UndoOutcome?
            // A refusal (nothing to undo, a later change in the way, a value refused) is not the store's error.
            _ = try mutation.commit(storeError: { $0 is OverrideStoreError }) { _, known in
                let done = try action(fileStore, known)
                outcome = done
                return done.receipt
            }
            guard let outcome else { throw HistoryError(code: .noJournal) }
            return outcome
        }
    }
}
