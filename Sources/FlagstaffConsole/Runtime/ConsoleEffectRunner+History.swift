import Flagstaff

/// Reading the history for the console.
extension ConsoleEffectRunner {
    /// The registry's store history, newest first, with the lines that could not be read; for a store that
    /// keeps none, why.
    static func readHistory(of registry: AnyFeatureRegistry) -> HistoryContents {
        guard let store = registry.fileStore else {
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
