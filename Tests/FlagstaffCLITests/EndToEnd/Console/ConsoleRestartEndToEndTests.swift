import FlagstaffTestSupport
import Foundation
import Testing

/// One meaning of "needs a restart" in the real `flagstaff console` (the demo registry) and `flagstaff
/// pending-restart`: the launch snapshot's (issue 28 item 1).
@Suite(.serialized) struct ConsoleRestartEndToEndTests {
    /// Types the console's command into the harness's shell and waits for its first frame.
    func openConsole(_ harness: ConsoleHarness) async throws {
        try harness.session.type("clear; " + harness.consoleCommand)
        try harness.session.sendKeys("Enter")
        try await harness.waitForConsole()
    }

    /// Waits for the shell's prompt after the console closed and returns the status the console exited with.
    func exitStatus(_ harness: ConsoleHarness) async throws -> Int {
        // The prompt itself, which the shell prints once the console has exited: keys typed while the console is
        // still closing may be discarded with its input.
        try await harness.session.waitFor("the shell's prompt") { screen in
            let lines = screen.lines.indices.map { screen.text(line: $0).trimmingCharacters(in: .whitespaces) }
            return !screen.contains("Blue Text") && lines.last { !$0.isEmpty } == "$"
        }
        try harness.session.type("S=$?; clear; echo EXIT=$S; echo STTY=same")
        try harness.session.sendKeys("Enter")
        return try await harness.waitForExit().status
    }

    @Test func aChangeLeftForLaterIsStillPendingWhenTheConsoleOpensAgain() async throws {
        let harness = try ConsoleHarness(width: 140, interactiveShell: true, demo: true)
        try await harness.session.waitFor(text: "$")
        try await openConsole(harness)
        try harness.session.sendKeys("/")
        try harness.session.type("Theme")
        try harness.session.sendKeys("Enter")
        try await harness.session.waitFor("Theme selected") { $0.selectedLine?.hasPrefix("Theme") == true }
        try harness.session.sendKeys("Space", "Space")
        try await harness.session.waitFor("dark") { $0.selectedLine?.contains("dark") == true }
        try harness.session.sendKeys("q")
        try await harness.session.waitFor("the restart prompt") { $0.contains("⟳ Theme  system → dark") }
        try harness.session.sendKeys("l")
        #expect(try await exitStatus(harness) == 3)

        // Opened again: the change is still pending, as `flagstaff pending-restart` says.
        try await openConsole(harness)
        var screen = try harness.session.capture()
        #expect(screen.text(line: 0).contains("1 needs restart"), "\(screen.text)")
        try harness.session.sendKeys("/")
        try harness.session.type("Theme")
        try harness.session.sendKeys("Enter")
        // The detail pane may come a frame after the selection moved.
        screen = try await harness.session.waitFor("Theme selected, its detail shown") {
            $0.selectedLine?.hasPrefix("Theme") == true && $0.contains("changed since launch")
        }
        #expect(screen.contains("changed since launch (was system)"), "\(screen.text)")
        try harness.session.sendKeys("q")
        try await harness.session.waitFor("the restart prompt") { $0.contains("⟳ Theme  system → dark") }
        try harness.session.sendKeys("l")
        try await harness.session.waitFor("the note") { $0.contains("restart the app to apply: theme (system → dark)") }
        #expect(try await exitStatus(harness) == 3)

        let pending = try await CommandRunner.run(
            URL(fileURLWithPath: harness.binary), ["pending-restart", "--demo", "--store", harness.store.path],
            environment: ProcessInfo.processInfo.environment)
        #expect(pending.status == 3)
        #expect(pending.standardOutput.hasPrefix("theme  system → dark"), "\(pending.standardOutput)")
    }
}
