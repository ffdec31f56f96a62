import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff undo`: reverts the newest change still in force.
struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Revert the latest change to the store that is still in force (one step).",
        discussion: """
            A change that set several keys at once (a bulk change, a profile apply, an import) is one step. \
            Undo refuses, changing nothing, when a key of that change has been changed since (by another \
            change, or outside the history), naming the key and the later change. The undo is journaled; \
            'flagstaff redo' re-applies what it reverted. Exit status 1 when there is nothing to undo or it \
            was refused.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Print JSON: {\"action\":\"undo\",\"target\":{…},\"change\":…,\"changes\":[…]}.")
    var json = false

    func run() throws {
        try UndoReport.run(source: source, redo: false, json: json)
    }
}

/// Runs and prints an undo or a redo.
enum UndoReport {
    static func run(source: RegistrySourceOptions, redo: Bool, json: Bool) throws {
        let loaded = try RegistryLoader.load(source)
        _ = try HistoryOutput.fileStore(loaded)
        let registry = loaded.registry
        let restartValues = registry.allFeatures.filter(\.requiresRestart).map { ($0, $0.currentValue) }
        let outcome: UndoOutcome
        do {
            outcome = try redo ? ChangeHistory(registry).redo() : ChangeHistory(registry).undo()
            JournalNote.report(outcome.receipt.journalError)
        } catch let error as HistoryError {
            throw CLIFailure.runtime(error.description)
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        let action = redo ? "redo" : "undo"
        // What this step wrote: the reverse of the target for an undo, the target again for a redo.
        let changes = outcome.target.entries.map { entry in
            redo ? (key: entry.key, from: entry.old, to: entry.new) : (key: entry.key, from: entry.new, to: entry.old)
        }
        if json {
            var text =
                #"{"action":"\#(action)","target":"#
                + HistoryOutput.json(outcome.target, entries: outcome.target.entries)
            text += #","change":"# + (outcome.change.map(JSONOutput.quoted) ?? "null")
            text += #","changes":"# + HistoryOutput.changesJSON(changes) + "}"
            StandardStreams.out(text)
        } else {
            StandardStreams.out("\(redo ? "redid" : "undid") the \(outcome.target.summary):")
            for change in changes {
                StandardStreams.out(
                    "    \(TerminalText.safe(change.key)): \(HistoryOutput.text(change.from)) → \(HistoryOutput.text(change.to))"
                )
            }
        }
        for (feature, before) in restartValues where feature.currentValue != before {
            StandardStreams.note("\(TerminalText.safe(feature.key)) requires a restart of the app to take effect")
        }
    }
}
