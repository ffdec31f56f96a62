import FlagstaffTestSupport
import Foundation
import Testing

/// Marks, bulk changes, undo/redo and the history overlay in the real `flagstaff console` in tmux, against a
/// store another `flagstaff` process writes too.
@Suite(.serialized) struct ConsoleHistoryEndToEndTests {
    @Test func markAllForceOffUndoAndRedo() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("m")
        var screen = try await harness.session.waitFor("the mark") {
            $0.contains("1 marked") && $0.contains(" ✓ Blue Text")
        }
        try harness.session.sendKeys("M")
        screen = try await harness.session.waitFor("every row marked") { $0.contains("8 marked") }
        try harness.session.sendKeys("x")
        screen = try await harness.session.waitFor("the bulk change") {
            $0.contains("Forced OFF 8 marked flags")
        }
        // Every marked flag is forced OFF, the five off by their default too (as `x` on one of them alone).
        var stored = try await harness.waitForStore { $0.count == 8 }
        #expect(stored.values.allSatisfy { $0 == "off" })

        try harness.session.sendKeys("u")
        screen = try await harness.session.waitFor("the undo") { $0.contains("Undid the console change of") }
        #expect(screen.contains("(8 keys)"))
        stored = try await harness.waitForStore { $0.isEmpty }
        try harness.session.sendKeys("U")
        try await harness.session.waitFor("the redo") { $0.contains("Redid the console change of") }
        stored = try await harness.waitForStore { $0.count == 8 }

        // Esc clears the marks; the journal holds the change, the undo and the redo.
        try harness.session.sendKeys("Escape")
        try await harness.session.waitFor("marks cleared") { $0.contains("Cleared 8 marks") && !$0.contains("✓") }
        let history = try await harness.runCLI(["history", "--json"])
        #expect(history.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [String: Any]
        let origins = (object?["changes"] as? [[String: Any]] ?? []).compactMap { $0["origin"] as? String }
        #expect(origins == ["redo", "undo", "console"])
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
        _ = screen
    }

    /// 20,000 flags: enough for the registry to apply the change on two threads and for the journal to be read in
    /// two halves when undoing it.
    @Test func markingTwentyThousandFlagsForcingThemOnAndUndoing() async throws {
        let groups = (0..<20).map { group in
            let flags = (0..<1_000).map { #"{"key":"g\#(group).flag\#($0)","default":false}"# }
            return #"{"key":"g\#(group)","flags":["# + flags.joined(separator: ",") + "]}"
        }
        let harness = try ConsoleHarness(
            manifestJSON: #"{"name":"Large","flags":[],"groups":["# + groups.joined(separator: ",") + "]}")
        try await harness.session.waitFor("the first frame") { $0.contains("20000 flags") && $0.contains("q quit") }
        try harness.session.sendKeys("M")
        try await harness.session.waitFor("every row marked") { $0.contains("20000 marked") }
        try harness.session.sendKeys("o")
        try await harness.session.waitFor("the question") { $0.contains("Force ON 20000 marked flags?") }
        try harness.session.sendKeys("y")
        try await harness.session.waitFor("the bulk change") {
            $0.contains("Forced ON 20000 marked flags") && $0.contains("20000 overridden")
        }
        let stored = try await harness.waitForStore(timeout: 10) { $0.count == 20_000 }
        #expect(stored.values.allSatisfy { $0 == "on" })
        let journal = try String(
            contentsOf: URL(fileURLWithPath: harness.store.path + ".history.jsonl"), encoding: .utf8)
        #expect(journal.split(separator: "\n").count == 20_000)

        try harness.session.sendKeys("u")
        try await harness.session.waitFor("the undo", timeout: 20) {
            $0.contains("Undid the console change of") && $0.contains("(20000 keys)") && $0.contains("0 overridden")
        }
        #expect(try await harness.waitForStore(timeout: 10) { $0.isEmpty }.isEmpty)
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func theHistoryOverlayShowsOtherProcessesChangesAndJumpsToTheFlag() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        #expect(try await harness.runCLI(["set", "list.compactRows", "on"]).status == 0)
        try harness.session.sendKeys("H")
        var screen = try await harness.session.waitFor("the overlay") {
            $0.contains("1 change, newest first") && $0.contains("cli      list.compactRows: default → on")
        }
        try harness.session.sendKeys("Enter")
        screen = try await harness.session.waitFor("the flag selected") {
            $0.selectedLine?.hasPrefix("Compact Rows") == true && !$0.contains("newest first")
        }
        // Undo reverts the other process's change (the newest in force) and says so.
        try harness.session.sendKeys("u")
        screen = try await harness.session.waitFor("the undo") {
            $0.contains("Undid the cli change of") && $0.contains("list.compactRows: on → default")
        }
        _ = try await harness.waitForStore { $0.isEmpty }
        try harness.session.sendKeys("u")
        try await harness.session.waitFor("nothing left") {
            $0.contains("nothing to undo: the history has no change still in force")
        }
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
        _ = screen
    }
}
