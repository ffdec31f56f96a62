/// Undo and redo on a registry's store (``FileOverrideStore/revert(redo:known:parameters:validate:)``), made through
/// the registry's one mutation entry point, so its members and subscribers see the result at once.
package struct ChangeHistory {
    /// The registry whose store's history is undone and redone.
    package let registry: AnyFeatureRegistry

    /// The history of `registry`'s store.
    package init(_ registry: AnyFeatureRegistry) {
        self.registry = registry
    }

    /// Undoes the newest change still in force in the registry's store (``FileOverrideStore/undo()``) and
    /// applies the result. The values written back are checked against their members as
    /// ``AnyFeatureRegistry/setOverrideValues(_:expiresAt:)`` checks them.
    /// - Parameter parameters: the wait for the lock.
    /// - Returns: what was undone.
    /// - Throws: ``HistoryError`` (also when the store is not a file store with a journal), ``InvalidOverrideValue``
    ///   naming the key and value the history holds that its member refuses, or the store's error.
    @discardableResult
    package func undo(parameters: WriteParameters = WriteParameters()) throws -> UndoOutcome {
        try revert(redo: false, parameters: parameters)
    }

    /// Re-applies the change most recently undone (``FileOverrideStore/redo()``) and applies the result, with the
    /// checks of ``undo(parameters:)``.
    /// - Parameter parameters: the wait for the lock.
    /// - Returns: what was redone.
    /// - Throws: ``HistoryError``, ``InvalidOverrideValue`` (see ``undo(parameters:)``), or the store's error.
    @discardableResult
    package func redo(parameters: WriteParameters = WriteParameters()) throws -> UndoOutcome {
        try revert(redo: true, parameters: parameters)
    }

    private func revert(redo: Bool, parameters: WriteParameters) throws -> UndoOutcome {
        guard let fileStore = registry.fileStore else { throw HistoryError(code: .noJournal) }
        return try registry.mutate { mutation in
            var outcome: UndoOutcome?
            // A refusal (nothing to undo, a later change in the way, a value refused) is not the store's error.
            _ = try mutation.commit(storeError: { $0 is OverrideStoreError }) { _, known in
                let done = try fileStore.revert(
                    redo: redo, known: known, parameters: parameters, validate: registry.validate)
                outcome = done
                return done.receipt
            }
            guard let outcome else { throw HistoryError(code: .noJournal) }
            return outcome
        }
    }
}
