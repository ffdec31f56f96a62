import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// The QA workflow keys in the real `flagstaff console` in tmux: the profile picker, an override expiring while
/// the console is open, the `Stale` scope, and the bisect banner for a session started by another process.
@Suite(.serialized) struct ConsoleWorkflowEndToEndTests {
    /// The harness's profiles folder (`overrides.profiles/` beside the store).
    func writeProfile(_ harness: ConsoleHarness, _ name: String, _ text: String) throws {
        let folder = harness.directory.appendingPathComponent("overrides.profiles")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: folder.appendingPathComponent(name + ".json"))
    }

    @Test func pickingAProfileAppliesItAsOneUndoStep() async throws {
        let harness = try ConsoleHarness()
        try writeProfile(harness, "checkout", #"{"version":1,"overrides":{"blueText":"on","list.compactRows":"on"}}"#)
        try writeProfile(harness, "broken", #"{"version":1,"overrides":["blueText"]}"#)
        try await harness.waitForConsole()
        try harness.session.sendKeys("p")
        var screen = try await harness.session.waitFor("the picker") {
            $0.contains("Profiles · merge") && $0.contains("broken    unreadable")
                && $0.contains("checkout  2 changes")
        }
        #expect(screen.contains("Cannot be read:"))  // `broken` comes first and is highlighted
        try harness.session.sendKeys("Down")
        screen = try await harness.session.waitFor("the diff") {
            $0.contains("blueText  default → ON") && $0.contains("list.compactRows  default → ON")
        }
        try harness.session.sendKeys("Enter")
        let stored = try await harness.waitForStore { $0.count == 2 }
        #expect(stored == ["blueText": "on", "list.compactRows": "on"])
        try await harness.session.waitFor("the message") { $0.contains("Profile checkout merged: 2 changes") }

        let undo = try await harness.runCLI(["undo"])
        #expect(undo.status == 0, "\(undo.standardError)")
        #expect(try await harness.waitForStore { $0.isEmpty }.isEmpty)
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func anOverrideExpiringWhileTheConsoleIsOpenDisappears() async throws {
        let harness = try ConsoleHarness()
        let expiresAt = CivilDate.timestampText(Date().addingTimeInterval(12))
        let text = """
            {"version":1,"overrides":{"blueText":"on"},"expiry":{"blueText":{"at":"\(expiresAt)","set":"\(expiresAt)"}}}
            """
        try Data(text.utf8).write(to: harness.store)
        try await harness.waitForConsole()
        // Row and detail pane in one capture (a frame can be caught half drawn).
        try await harness.session.waitFor("the time left") {
            $0.selectedLine?.hasPrefix("Blue Text") == true && $0.selectedLine?.contains("ON   ⏱ ") == true
                && $0.contains("⏱ expires in")
        }
        try await harness.session.waitFor("expired", timeout: 40) {
            $0.selectedLine?.contains("OFF  expired") == true && $0.contains("override expired")
        }

        // `t` then "1 hour" on a fresh override: the row counts down from an hour.
        try harness.session.sendKeys("o")
        try await harness.session.waitFor("forced") { $0.selectedLine?.contains("ON   override") == true }
        try harness.session.sendKeys("t")
        try await harness.session.waitFor("the menu") { $0.contains("Override expires in:") && $0.contains("never") }
        try harness.session.sendKeys("Enter")
        try await harness.session.waitFor("an hour left") {
            $0.selectedLine?.contains("ON   ⏱ 59m") == true || $0.selectedLine?.contains("ON   ⏱ 1h") == true
        }
        let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: harness.store)) as? [String: Any]
        #expect((stored?["expiry"] as? [String: Any])?["blueText"] != nil)
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func theStaleScopeRemovesAnOrphanAndTheBisectBannerFollowsTheSession() async throws {
        let harness = try ConsoleHarness()
        try Data(#"{"version":1,"overrides":{"gone.flag":"on","blueText":"on","list.compactRows":"on"}}"#.utf8)
            .write(to: harness.store)
        try await harness.waitForConsole()
        try harness.session.sendKeys("Tab", "Tab", "Tab", "Tab")
        var screen = try await harness.session.waitFor("the Stale scope") {
            $0.contains("[Stale]") && $0.contains("gone.flag") && $0.contains("orphan")
        }
        #expect(screen.selectedLine?.hasPrefix("gone.flag") == true)
        try harness.session.sendKeys("r")
        let stored = try await harness.waitForStore { $0["gone.flag"] == nil }
        #expect(stored == ["blueText": "on", "list.compactRows": "on"])
        try await harness.session.waitFor("the scope emptied") { $0.contains("No stale overrides") }

        // Another process starts a bisect on the store: the banner appears (the console watches the store).
        try FileOverrideStore(url: harness.store).startBisect()
        screen = try await harness.session.waitFor("the banner") {
            $0.contains("Bisect step 1 · testing 1 of 2: blueText")
        }
        try FileOverrideStore(url: harness.store).resetBisect()
        try await harness.session.waitFor("no banner") { !$0.contains("Bisect step") }
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }
}
