import Foundation

/// One change to a store as its journal recorded it: every key it changed, who made it and when.
package struct HistoryChange: Sendable, Equatable, Identifiable {
    /// The change's id (shared by its journal lines).
    package var id: String
    /// The journal lines of the change, one per key, in key order.
    package var entries: [JournalEntry]

    /// Creates a change from its lines (at least one, all with the same change id).
    package init(id: String, entries: [JournalEntry]) {
        self.id = id
        self.entries = entries
    }

    private var first: JournalEntry? { entries.first }
    /// When it was written.
    package var time: Date { first?.time ?? Date(timeIntervalSince1970: 0) }
    /// Where it came from.
    package var origin: ChangeOrigin { first?.origin ?? .app }
    /// The user of the writing process.
    package var user: String { first?.user ?? "" }
    /// The writing process's id.
    package var pid: Int32 { first?.pid ?? 0 }
    /// The writing process's command line.
    package var command: String { first?.command ?? "" }
    /// The profile applied, for a profile change.
    package var profile: String? { first?.profile }
    /// The change this one undoes.
    package var undoes: String? { first?.undoes }
    /// The change this one re-applies.
    package var redoes: String? { first?.redoes }
    /// The keys changed.
    package var keys: [String] { entries.map(\.key) }
    /// How many keys the change wrote, as its lines say (``JournalEntry/changeKeyCount``), else its lines' count.
    package var writtenKeyCount: Int { max(first?.changeKeyCount ?? 0, entries.count) }
    /// Whether the journal holds every line of the change: not so when its writer was killed while appending them
    /// (a change of 40,000 keys of which 17,400 lines were written). An undo of such a change is refused.
    package var isFullyJournaled: Bool { entries.count >= writtenKeyCount }

    /// `cli by qa (pid 42, flagstaff set blueText on) at 2026-11-23T19:00:41.123Z`, safe to print.
    package var summary: String {
        // Every field comes from the journal, which a person may have edited: each is sanitised.
        var text =
            "\(TextSanitizer.sanitize(origin.rawValue)) change \(TextSanitizer.sanitize(id)) by \(TextSanitizer.sanitize(user)) (pid \(pid)"
        if !command.isEmpty { text += ", \(TextSanitizer.sanitize(command))" }
        return text + ") at \(JournalTime.text(time))"
    }

    /// Groups journal lines into changes: consecutive lines with one change id are one change (a writer
    /// appends a change's lines at once, under the store's lock).
    /// - Parameter entries: lines, oldest first.
    /// - Returns: the changes, oldest first.
    package static func group(_ entries: [JournalEntry]) -> [HistoryChange] {
        var changes: [HistoryChange] = []
        for entry in entries {
            if let last = changes.last, last.id == entry.change {
                changes[changes.count - 1].entries.append(entry)
            } else {
                changes.append(HistoryChange(id: entry.change, entries: [entry]))
            }
        }
        return changes
    }
}
