import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff redo`: re-applies the change most recently undone.
struct RedoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "redo",
        abstract: "Re-apply the change most recently undone.",
        discussion: """
            Works while no other change has been made since the undo. Refuses, changing nothing, when a key \
            has been changed since, naming it. The redo is journaled. Exit status 1 when there is nothing to \
            redo or it was refused.
            """)

    @OptionGroup var source: RegistrySourceOptions

    @Flag(help: "Print JSON: {\"action\":\"redo\",\"target\":{…},\"change\":…,\"changes\":[…]}.")
    var json = false

    func run() throws {
        try UndoReport.run(source: source, redo: true, json: json)
    }
}
