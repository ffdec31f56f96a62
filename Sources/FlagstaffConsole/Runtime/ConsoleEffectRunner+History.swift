import Flagstaff

/// Undo, redo and reading the history for the console.
extension ConsoleEffectRunner {
    /// Submits an undo or redo to the store writer, like any other write: performed at once when the store's
    /// lock is free, else queued behind the earlier writes until it is (so it undoes the console's own latest
    /// change even while that one still waits). The outcome is posted as
    /// ``ConsoleEvent/historyStepped(_:)``; a refusal (nothing to do, a later change in the way) changes nothing
    /// and counts as a saved write; a held lock is retried; other errors fail the write.
    func stepHistory(redo: Bool) -> [ConsoleEvent] {
        let registry = self.registry
        let inbox = self.inbox
        return writer.submit(
            .init(keys: []) {
                do {
                    let outcome = try redo ? registry.redoLastUndo() : registry.undoLastChange()
                    inbox.post(.historyStepped(.done(redo: redo, change: outcome.target)))
                } catch let error as HistoryError {
                    inbox.post(.historyStepped(.refused(redo: redo, reason: error.description)))
                }
            })
    }

    /// The registry's store history, newest first, with the lines that could not be read; for a store that
    /// keeps none, why.
    static func readHistory(of registry: AnyFeatureRegistry) -> HistoryContents {
        guard let store = registry.store as? FileOverrideStore else {
            return HistoryContents(changes: [], unavailable: "This store keeps no change history")
        }
        do {
            guard let journal = try store.journal() else {
                return HistoryContents(changes: [], unavailable: "This store keeps no change history")
            }
            let contents = journal.read()
            return HistoryContents(
                changes: contents.changes.reversed(), problems: contents.problems.map(\.description))
        } catch {
            return HistoryContents(changes: [], unavailable: "Cannot read the change history: \(error)")
        }
    }
}
