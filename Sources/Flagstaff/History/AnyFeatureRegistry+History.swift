/// Undo and redo through a registry, so its members and subscribers see the result at once.
extension AnyFeatureRegistry {
    /// Undoes the newest change still in force in the registry's store (``FileOverrideStore/undo()``) and
    /// applies the result.
    /// The values written back are checked against their members as ``setOverrideValues(_:)`` checks them.
    /// - Returns: what was undone.
    /// - Throws: ``HistoryError`` (also when the store is not a file store with a journal), ``InvalidOverrideValue``
    ///   naming the key and value the history holds that its member refuses, or the store's error.
    @discardableResult
    package func undoLastChange() throws -> UndoOutcome {
        try revert { try $0.revert(redo: false, validate: validate) }
    }

    /// Re-applies the change most recently undone (``FileOverrideStore/redo()``) and applies the result.
    /// The values written are checked against their members as ``setOverrideValues(_:)`` checks them.
    /// - Returns: what was redone.
    /// - Throws: ``HistoryError``, ``InvalidOverrideValue`` (see ``undoLastChange()``), or the store's error.
    @discardableResult
    package func redoLastUndo() throws -> UndoOutcome {
        try revert { try $0.revert(redo: true, validate: validate) }
    }

    private func revert(_ action: (FileOverrideStore) throws -> UndoOutcome) throws -> UndoOutcome {
        guard let fileStore = store as? FileOverrideStore else { throw HistoryError(code: .noJournal) }
        var finishPending: @Sendable () -> Void = {}
        defer {
            finishPending()
            announceStoreError()
        }
        let (outcome, change) = try core.writes.withLock { _ -> (UndoOutcome, FeatureChange?) in
            finishPending = writePendingAppWrites()  // the app's writes first: undone in order
            let outcome = try action(fileStore)
            setStoreError(nil)
            return (
                outcome, apply(StoreSnapshot(overrides: outcome.overrides, expiries: outcome.expiries), origin: .local)
            )
        }
        if let change { notify(change) }
        return outcome
    }
}
