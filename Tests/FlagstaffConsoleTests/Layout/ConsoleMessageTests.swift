import Flagstaff
import FlagstaffTestSupport
import Testing

@testable import FlagstaffConsole

/// Long messages in the footer: wrapped upwards rather than cut, paths shortened before the reason is lost.
@Suite struct ConsoleMessageTests {
    let path = "/home/ada/projects/moments/configuration/flagstaff/overrides.json"

    @Test func aLongErrorWrapsOverTheDetailPane() throws {
        var state = ConsoleHarness(registry: try makeRegistry(), width: 100, height: 30)
        let error =
            "cannot write the override store \(path): Permission denied (the file is mode 0444; make it writable)"
        _ = state.update(.storeWriteFailed(error))
        let screen = ConsoleLayout.render(state)
        #expect(screen.footerMessage == "Could not save the change: " + error, "\(screen.text)")
        #expect(screen.text(row: 26).hasPrefix("─────"), "three lines over the detail pane, under a rule")
        #expect(screen.row(containing: "Blue Text") == 3, "the list is untouched")
    }

    @Test func inASmallTerminalThePathIsShortenedAndTheReasonKept() throws {
        var state = ConsoleHarness(registry: try makeRegistry(), width: 40, height: 10)
        _ = state.update(.storeWriteFailed("cannot write the override store \(path): Permission denied"))
        let screen = ConsoleLayout.render(state)
        #expect(
            screen.footerMessage
                == "Could not save the change: cannot write the override store …/overrides.json: Permission denied",
            "\(screen.text)")
        #expect((7...9).allSatisfy { DisplayWidth.of(screen.text(row: $0)) == 40 })
        #expect(screen.text(row: 6).hasPrefix("────"), "three lines at most in 10 rows, under a rule")
        #expect(screen.row(containing: "Blue Text") == 3)
    }

    @Test func whatNoRoomCanHoldEndsWithAnEllipsis() {
        let lines = ConsoleLayout.messageLines(
            String(repeating: "word ", count: 40), width: 20, maxLines: 2, ellipsis: "…")
        #expect(lines == ["word word word word", "word word word word…"])
        #expect(ConsoleLayout.wrap("a  b", width: 10) == ["a  b"], "runs of spaces inside a line are kept")
        #expect(ConsoleLayout.wrap("abcdefghij klm", width: 4) == ["abcd", "efgh", "ij", "klm"])
    }

    @Test func theStoreErrorShowsWholeInTheFooterAndShortInTheHeader() throws {
        let registry = try makeRegistry(store: UnreadableStore(path: path))
        let state = ConsoleHarness(registry: registry, width: 100, height: 30)
        let screen = ConsoleLayout.render(state)
        #expect(
            screen.footerMessage == "Store error: cannot read the override store \(path): Permission denied",
            "\(screen.text)")
        #expect(screen.text(row: 0).contains("store error: cannot read the override store …/o"), "\(screen.text)")
    }
}

/// A store that cannot be read, with a long path in its error.
private struct UnreadableStore: OverrideStore {
    let path: String
    func load() throws -> [String: OverrideValue] {
        throw OverrideStoreError.unreadable(path: path, reason: "Permission denied")
    }
    func write(_ change: OverrideChange) throws -> StoreSnapshot { StoreSnapshot(overrides: try load()) }
}
