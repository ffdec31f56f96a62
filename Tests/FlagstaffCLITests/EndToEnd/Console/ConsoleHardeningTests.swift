import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// The console in tmux against issue 11: a held store lock never freezes it, and every way of leaving with a
/// restart due prints the same note.
@Suite("console hardening (tmux)")
struct ConsoleHardeningTests {
    @Test func aHeldLockNeverFreezesTheConsoleAndTheWriteLandsOnceReleased() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        // Held by this test process on a thread of its own: another process than the console in tmux.
        let lock = try await StoreLockHolder.onThread(path: harness.store.path)
        defer { lock.release() }
        let holder = "pid \(getpid()) ("

        try harness.session.sendKeys("o")  // Blue Text, the first row
        var screen = try await harness.session.waitFor(text: "the store is locked by \(holder)")
        // The notice wraps over the detail pane: who holds the lock, for how long, and what happens.
        let words = screen.text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains(" s) · retrying until it is released"), "\(screen.text)")
        #expect(screen.selectedLine?.contains("OFF  saving ON") == true, "\(screen.text)")
        // The loop keeps answering: the cursor moves, the help opens and closes.
        try harness.session.sendKeys("j")
        try await harness.session.waitFor("the cursor moved") { $0.selectedLine?.hasPrefix("Use Tab Bar Nav") == true }
        try harness.session.sendKeys("?")
        try await harness.session.waitFor(text: "Keys")
        try harness.session.sendKeys("Escape")
        try await harness.session.waitFor("help closed") { !$0.contains("? or Esc close") }
        #expect(try harness.storedOverrides().isEmpty)

        lock.release()
        #expect(try await harness.waitForStore { $0["blueText"] == "on" }["blueText"] == "on")
        // The notice gives way to what the write changed.
        screen = try await harness.session.waitFor("the notice is gone") {
            !$0.contains("locked") && $0.contains("Blue Text: OFF → ON")
        }
        #expect(!screen.text.contains("saving"), "\(screen.text)")
        try harness.session.sendKeys("q")
        #expect(try await harness.waitForExit().status == 0)
    }

    @Test func quittingWhileAWriteWaitsAsksAndQuitsAtOnceWithoutIt() async throws {
        let harness = try ConsoleHarness()
        try await harness.waitForConsole()
        let lock = try await StoreLockHolder.onThread(path: harness.store.path)
        defer { lock.release() }

        try harness.session.sendKeys("o")
        try await harness.session.waitFor(text: "saving ON")
        try harness.session.sendKeys("q")
        try await harness.session.waitFor(text: "Quitting once the change is saved")
        try harness.session.sendKeys("y")
        // At once, although the store would wait 10 s for its lock.
        let exit = try await harness.waitForExit(timeout: 3)
        #expect(exit.status == 0)
        #expect(exit.sttyUnchanged)
        let screen = try harness.session.capture()
        #expect(
            screen.text.contains("flagstaff: note: not saved (the override store stayed locked): blueText"),
            "\(screen.text)")
        #expect(try harness.storedOverrides().isEmpty)
    }

    @Test func aSecondControlCPrintsTheSameRestartNoteAsLater() async throws {
        let note = "flagstaff: note: restart the app to apply: useTabBarNav"
        // l in the restart prompt.
        var harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("Down", "o", "q")
        try await harness.session.waitFor(text: "Restart needed")
        try harness.session.sendKeys("l")
        var exit = try await harness.waitForExit()
        #expect(exit.status == 3)
        var lines = try harness.session.capture().text.split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(lines.contains(note), "\(lines)")

        // Ctrl-C opens the prompt, a second Ctrl-C quits keeping the changes: the same note, status 130.
        harness = try ConsoleHarness()
        try await harness.waitForConsole()
        try harness.session.sendKeys("Down", "o")
        #expect(try await harness.waitForStore { $0["useTabBarNav"] == "on" }["useTabBarNav"] == "on")
        try harness.session.sendKeys("C-c")
        try await harness.session.waitFor(text: "Restart needed")
        try harness.session.sendKeys("C-c")
        exit = try await harness.waitForExit()
        #expect(exit.status == 130)
        #expect(exit.sttyUnchanged)
        lines = try harness.session.capture().text.split(separator: "\n").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(lines.contains(note), "\(lines)")
    }
}
