import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffConsole

/// A store write that waits for another process's lock: the state, the screen, and quitting meanwhile.
@Suite struct ConsoleStoreLockTests {
    let registry: AnyFeatureRegistry
    let holder = "pid 4242 (flagstaff set blueText off)"

    init() throws {
        registry = try makeRegistry()
    }

    /// A 100×30 console with `o` pressed on Blue Text, the write not yet reported.
    func stateWithPendingWrite() -> ConsoleHarness {
        var state = ConsoleHarness(registry: registry, width: 100, height: 30)
        #expect(press(.character("o"), into: &state) == [.write(.values(["blueText": .set(.on)]))])
        return state
    }

    @Test func aPendingChangeToMarkedFlagsShowsOnTheMarkedRowsOnly() throws {
        var state = ConsoleHarness(registry: registry, width: 100, height: 30)
        press(.character("m"), into: &state)  // Blue Text
        state.select(key: "list.infiniteScroll")
        press(.character("m"), into: &state)
        let effects = press(.character("o"), into: &state)
        guard case .write(.members(let members, .set(.on)))? = effects.first else {
            Issue.record("expected a bulk write, got \(effects)")
            return
        }
        #expect(state.pendingWrites == [.members(members, edit: .set(.on))])
        let screen = ConsoleLayout.render(state)
        #expect(screen.text(row: screen.row(containing: "Blue Text")).contains("OFF  saving ON"))
        #expect(screen.text(row: screen.row(containing: "Infinite Scroll")).contains("saving ON"))
        #expect(!screen.text(row: screen.row(containing: "Compact Rows")).contains("saving"))
        // Saved: the markers go.
        try registry.setOverrides(["blueText": .enabled, "list.infiniteScroll": .enabled])
        _ = state.registryChanged(keys: ["blueText", "list.infiniteScroll"])
        _ = state.update(.storeWriteSaved)
        #expect(ConsoleLayout.render(state).find("saving") == nil)
    }

    @Test func aPendingWriteShowsOnItsRowAndTheLockHolderInTheFooter() throws {
        var state = stateWithPendingWrite()
        #expect(state.pendingWrites == [.values(["blueText": .set(.on)])])
        var screen = ConsoleLayout.render(state)
        let row = screen.row(containing: "Blue Text")
        #expect(screen.text(row: row).contains("OFF  saving ON"), "the value stays what the app sees until saved")
        #expect(screen.cell(at: "saving ON")?.foreground == .yellow)
        #expect(
            screen.text(row: 27).hasPrefix(" saving ON (not saved yet) · kind static"), "the detail pane says so too")

        #expect(state.update(.storeLocked(holder: holder, waited: .seconds(3))) == [.repaint])
        screen = ConsoleLayout.render(state)
        #expect(
            screen.footerMessage
                == "Saving 1 change: the store is locked by pid 4242 (flagstaff set blueText off) (3 s) · retrying until it is released",
            "\(screen.text)")
        #expect(screen.text(row: 27).hasPrefix("───"), "two lines, over the detail pane, under a rule")

        // Navigation, search and help keep acting while the write waits.
        press(.character("j"), into: &state)
        #expect(state.cursor == 1)
        press(.character("/"), into: &state)
        type("tab", into: &state)
        #expect(state.selectedKey == "useTabBarNav")
        press(.escape, .character("?"), into: &state)
        #expect(state.mode.kind == .help)
        press(.escape, into: &state)

        // The write lands: the registry reports the flag, the runner the write; the marker and notice go.
        try registry.setOverrides(["blueText": .enabled])
        _ = state.registryChanged(keys: ["blueText"])
        #expect(state.update(.storeWriteSaved) == [.repaint])
        #expect(state.pendingWrites.isEmpty && state.storeLockWait == nil)
        screen = ConsoleLayout.render(state)
        #expect(screen.text(row: screen.row(containing: "Blue Text")).contains("ON   override"))
        #expect(screen.text(row: 29).hasPrefix(" Blue Text: OFF → ON "), "once saved, the change is told")
    }

    @Test func writesAreReportedInOrderAndTheNewestPendingValueIsShown() {
        var state = stateWithPendingWrite()
        press(.character("x"), into: &state)
        #expect(state.pendingWrites == [.values(["blueText": .set(.on)]), .values(["blueText": .set(.off)])])
        #expect(ConsoleLayout.render(state).find("saving OFF") != nil)
        _ = state.update(.storeWriteSaved)
        #expect(state.pendingWrites == [.values(["blueText": .set(.off)])])
        _ = state.update(.storeWriteFailed("cannot write the override store /tmp/s.json: Permission denied"))
        #expect(state.pendingWrites.isEmpty)
        #expect(
            state.statusMessage
                == "Could not save the change: cannot write the override store /tmp/s.json: Permission denied")
    }

    @Test func aPendingResetOfEverythingMarksOnlyTheOverriddenFlags() throws {
        try registry.setOverrides(["blueText": .enabled])
        var state = ConsoleHarness(registry: registry, width: 100, height: 30)
        press(.character("R"), into: &state)
        #expect(press(.character("y"), into: &state) == [.write(.resetAll)])
        #expect(state.pendingWrites == [.resetAll])
        let screen = ConsoleLayout.render(state)
        #expect(screen.text(row: screen.row(containing: "Blue Text")).contains("ON   resetting"))
        #expect((3..<24).filter { screen.text(row: $0).contains("resetting") } == [screen.row(containing: "Blue Text")])
        #expect(screen.text(row: screen.row(containing: "Use Tab Bar Nav")).contains("OFF  default"))
    }

    @Test func quittingWaitsForTheWriteAndGoesOnOnceItIsSaved() {
        var state = stateWithPendingWrite()
        _ = state.update(.storeLocked(holder: holder, waited: .seconds(1)))
        #expect(press(.character("q"), into: &state).isEmpty)
        #expect(state.mode.kind == .quitWhenSaved)
        #expect(
            ConsoleLayout.render(state).footerMessage
                == "Quitting once the change is saved (the store is locked by pid 4242 (flagstaff set blueText off), 1 s) · y quit without saving  Esc stay"
        )
        #expect(state.update(.storeLocked(holder: holder, waited: .seconds(2))) == [.repaint])
        #expect(state.update(.storeWriteSaved) == [.quit(.notNeeded, signal: nil)])
    }

    @Test func quittingWithoutSavingEscStaysAndAFailureStopsTheQuit() {
        // y: quit now, the write left unsaved.
        var state = stateWithPendingWrite()
        press(.character("q"), into: &state)
        #expect(press(.character("y"), into: &state) == [.quit(.notNeeded, signal: nil)])
        // A second Ctrl-C (SIGINT) does the same, with the signal.
        state = stateWithPendingWrite()
        #expect(state.update(.signal(.interrupt)) == [.repaint])
        #expect(state.mode.kind == .quitWhenSaved)
        #expect(state.update(.signal(.interrupt)) == [.quit(.notNeeded, signal: .interrupt)])
        // Esc: back to the list, the write keeps waiting and still lands.
        state = stateWithPendingWrite()
        press(.character("q"), .escape, into: &state)
        #expect(state.mode.kind == .list)
        #expect(state.pendingWrites.count == 1)
        #expect(state.update(.storeWriteSaved) == [.repaint], "no quit after Esc")
        // A write that fails while quitting: the console stays and says why.
        state = stateWithPendingWrite()
        press(.character("q"), into: &state)
        _ = state.update(.storeWriteFailed("disk full"))
        #expect(state.mode.kind == .list)
        #expect(state.statusMessage == "Not quitting: could not save the change: disk full")
    }

    @Test func anUndoThatCannotBeSavedQuitsLater() throws {
        var state = ConsoleHarness(registry: registry, width: 100, height: 30)
        try registry.setOverrides(["useTabBarNav": .enabled])
        _ = state.registryChanged(keys: ["useTabBarNav"])
        press(.character("q"), into: &state)
        #expect(state.mode.kind == .restartPrompt)
        #expect(press(.character("u"), into: &state) == [.write(.values(["useTabBarNav": .remove]))])
        _ = state.update(.storeLocked(holder: holder, waited: .zero))
        #expect(state.mode.kind == .quitWhenSaved)
        // The restart-requiring change stays in place: quitting without the undo means restarting later.
        #expect(press(.character("y"), into: &state) == [.quit(.later, signal: nil)])
    }

    @Test func aTooSmallTerminalStillQuitsAtOnce() {
        var state = stateWithPendingWrite()
        _ = state.update(.resize(width: 20, height: 5))
        #expect(press(.character("q"), into: &state) == [.quit(.notNeeded, signal: nil)])
    }
}

extension ScreenBuffer {
    /// The footer's message: the rows above the last one up to the rule, trimmed and joined by spaces.
    var footerMessage: String {
        var lines: [String] = []
        var row = height - 1
        while row >= 0, !text(row: row).hasPrefix("───"), !text(row: row).hasPrefix("---") {
            lines.insert(text(row: row).trimmingCharacters(in: .whitespaces), at: 0)
            row -= 1
        }
        return lines.joined(separator: " ")
    }
}
