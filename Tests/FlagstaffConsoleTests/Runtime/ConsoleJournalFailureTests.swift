import Flagstaff
import Foundation
import Testing

@testable import FlagstaffConsole

/// A change the console saved but could not journal is saved, and the footer says the history missed it.
@Suite struct ConsoleJournalFailureTests {
    @Test func aJournalThatCannotBeWrittenIsSaidInTheFooter() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-journal-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("overrides.json")
        // A directory in the journal's place: the journal cannot be opened.
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: url.path + ".history.jsonl"), withIntermediateDirectories: true)
        let registry = try makeRegistry(store: FileOverrideStore(url: url))
        var state = ConsoleHarness(registry: registry, width: 140, height: 30)
        let runner = ConsoleEffectRunner(registry: registry, terminal: ScriptedTerminal(events: []))
        defer { runner.stop() }

        try runner.send(.key(.character("o")), to: &state)

        #expect(try FileOverrideStore(url: url, journal: nil).load() == ["blueText": .on], "the change stands")
        let message = state.statusMessage ?? ""
        #expect(
            message.hasPrefix("Saved, but not recorded in the history: \(url.path).history.jsonl")
                && message.contains("directory"), "\(message)")
        #expect(ConsoleLayout.render(state).find("Saved, but not recorded in the history") != nil)
    }
}
