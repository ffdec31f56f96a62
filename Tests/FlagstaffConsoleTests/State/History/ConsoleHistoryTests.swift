import Flagstaff
import FlagstaffTerminalDriver
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffConsole

/// `u` / `U` (undo, redo through the store's journal) and the `H` history overlay, against a real file store.
@Suite struct ConsoleHistoryTests {
    /// A file store journaled as the console journals it, in a fresh directory, with a console on it.
    final class Fixture: @unchecked Sendable {
        let directory: URL
        let url: URL
        let registry: AnyFeatureRegistry
        let runner: ConsoleEffectRunner
        var state: ConsoleHarness
        private let lock = AnnotatedMutex<StoreLockHolder?>(nil)

        init(height: Int = 30) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-history-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            url = directory.appendingPathComponent("overrides.json")
            registry = try makeRegistry(store: FileOverrideStore(url: url, journal: JournalOptions(origin: .console)))
            runner = ConsoleEffectRunner(registry: registry, terminal: ScriptedTerminal(events: []))
            state = ConsoleHarness(registry: registry, width: 100, height: height)
        }

        deinit {
            runner.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// Feeds keys through the console's own runner.
        func press(_ keys: ConsoleKey...) throws {
            for key in keys { try runner.send(.key(key), to: &state) }
        }

        /// Another process's write (a `flagstaff set`, journaled as `cli`).
        func cliSet(_ changes: [String: OverrideEdit]) throws {
            _ = try FileOverrideStore(url: url, journal: JournalOptions(origin: .cli)).write(OverrideChange(changes))
        }

        /// The journal's lines, oldest first.
        func journal() throws -> [JournalEntry] {
            try #require(try FileOverrideStore(url: url).journal()).read().entries
        }

        var screen: ScreenBuffer { ConsoleLayout.render(state) }

        /// Takes the store's lock on another thread and returns once it is held.
        func holdLock() async throws {
            let holder = try await StoreLockHolder.onThread(path: url.path)
            lock.withLock { $0 = holder }
        }

        func releaseLock() { lock.withLock { $0?.release() } }
    }

    @Test func uUndoesTheConsolesChangeAndSaysWhatItUndid() throws {
        let fixture = try Fixture()
        try fixture.press(.character("o"))
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .enabled)
        try fixture.press(.character("u"))
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .featureDefault)
        let message = try #require(fixture.state.statusMessage)
        #expect(message.hasPrefix("Undid the console change of "), "\(message)")
        #expect(message.hasSuffix(": blueText: on → default"), "\(message)")
        #expect(fixture.screen.find("blueText: on → default") != nil)
        #expect(fixture.state.pendingWrites.isEmpty)
        // Journaled: the console's change with origin console, the undo naming it.
        let lines = try fixture.journal()
        #expect(lines.map(\.origin) == [.console, .undo])
        #expect(lines[1].undoes == lines[0].change)

        try fixture.press(.character("U"))
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .enabled)
        #expect(fixture.state.statusMessage?.hasPrefix("Redid the console change of ") == true)
        #expect(fixture.state.statusMessage?.hasSuffix(": blueText: default → on") == true)
        #expect(try fixture.journal().last?.origin == .redo)
    }

    @Test func aBulkChangeIsOneUndoStep() throws {
        let fixture = try Fixture()
        try fixture.press(.character("M"), .character("o"))
        // Every flag is forced, those on by their default too.
        let written = fixture.registry.allFeatures.filter { $0 is AnyFlag }.count
        #expect(written >= 4 && fixture.registry.storedOverrides.count == written)
        let changes = Set(try fixture.journal().map(\.change))
        #expect(changes.count == 1)
        try fixture.press(.character("u"))
        #expect(fixture.registry.storedOverrides.isEmpty)
        let message = try #require(fixture.state.statusMessage)
        #expect(message.contains("(\(written) keys): "), "\(message)")
        #expect(message.hasSuffix(" and \(written - 3) more"), "\(message)")
    }

    @Test func undoRefusesToClobberAChangeMadeOutsideTheHistory() throws {
        let fixture = try Fixture()
        try fixture.press(.character("o"))
        // A writer that keeps no journal (a hand edit would do the same).
        _ = try FileOverrideStore(url: fixture.url, journal: nil).write(["blueText": .set(.off)])
        try fixture.press(.character("u"))
        let message = try #require(fixture.state.statusMessage)
        #expect(message.hasPrefix("cannot undo the console change "), "\(message)")
        #expect(message.hasSuffix(#"blueText was changed outside the history (now "off"); nothing was changed"#))
        #expect(try FileOverrideStore(url: fixture.url).load() == ["blueText": .off])
        #expect(fixture.state.pendingWrites.isEmpty)
    }

    @Test func undoTakesTheNewestChangeWhoeverMadeIt() throws {
        let fixture = try Fixture()
        try fixture.press(.character("o"))
        try fixture.cliSet(["blueText": .set(.off)])
        try fixture.press(.character("u"))
        #expect(fixture.state.statusMessage?.hasPrefix("Undid the cli change of ") == true)
        #expect(fixture.state.statusMessage?.hasSuffix(": blueText: off → on") == true)
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .enabled)
    }

    @Test func nothingToUndoOrRedoIsSaid() throws {
        let fixture = try Fixture()
        try fixture.press(.character("u"))
        #expect(fixture.state.statusMessage == "nothing to undo: the history has no change still in force")
        try fixture.press(.character("U"))
        #expect(fixture.state.statusMessage == "nothing to redo: no undone change since the last change")
    }

    @Test func aStoreWithoutHistorySaysSo() throws {
        var state = ConsoleHarness(registry: try makeRegistry(), width: 100, height: 30)
        try pressAndApply(.character("u"), into: &state)
        #expect(state.statusMessage == "this store keeps no change history")
        try pressAndApply(.character("H"), into: &state)
        #expect(state.mode.kind == .history)
        #expect(ConsoleLayout.render(state).find("This store keeps no change history") != nil)
    }

    @Test func anUndoWaitsForAHeldLockWithoutBlockingTheLoop() async throws {
        let fixture = try Fixture()
        try fixture.press(.character("o"))
        try await fixture.holdLock()
        let clock = ContinuousClock()
        let start = clock.now
        try fixture.press(.character("u"))
        #expect(start.duration(to: clock.now) < .seconds(5), "the loop waited for the lock (up to 10 s)")
        #expect(fixture.state.pendingWrites == [.history(redo: false)])
        #expect(fixture.state.storeLockWait != nil)
        #expect(fixture.screen.find("Saving 1 change: the store is locked by") != nil)
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .enabled)
        // Keys keep acting meanwhile.
        try fixture.press(.character("j"))
        #expect(fixture.state.cursor == 1)

        fixture.releaseLock()
        let landed = try await poll(timeout: .seconds(90)) { () throws -> Bool? in
            try fixture.runner.sendQueuedEvents(to: &fixture.state)
            return fixture.state.pendingWrites.isEmpty ? true : nil
        }
        #expect(landed == true)
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .featureDefault)
        #expect(fixture.state.statusMessage?.hasPrefix("Undid the console change") == true)
    }

    @Test func theRestartPromptsUKeepsItsMeaning() throws {
        let fixture = try Fixture()
        fixture.state.select(key: "useTabBarNav")
        try fixture.press(.character("o"), .character("q"))
        #expect(fixture.state.mode.kind == .restartPrompt)
        try fixture.press(.character("u"))
        // The prompt's undo: the restart-requiring change put back, and the console quits.
        #expect(fixture.runner.outcome?.restartChoice == .undo)
        #expect(fixture.registry.flag(forKey: "useTabBarNav")?.override == .featureDefault)
        #expect(try fixture.journal().last?.origin == .console)
    }

    @Test func theOverlayListsChangesNewestFirstAndEnterJumpsToTheFlag() throws {
        let fixture = try Fixture()
        try fixture.press(.character("o"))  // blueText on
        try fixture.cliSet(["list.compactRows": .set(.on)])
        try fixture.cliSet(["moments.isRoundedAvatar": .set(.off)])
        try fixture.press(.character("/"))
        for character in "blue" { try fixture.press(.character(character)) }
        try fixture.press(.enter, .character("H"))
        #expect(fixture.state.mode.kind == .history)
        var screen = fixture.screen
        #expect(screen.find("3 changes, newest first (times in UTC)") != nil)
        let avatar = screen.row(containing: "cli      moments.isRoundedAvatar: default → off")
        let compact = screen.row(containing: "cli      list.compactRows: default → on")
        let blue = screen.row(containing: "console  blueText: default → on")
        #expect(avatar >= 0 && avatar < compact && compact < blue, "\(avatar) \(compact) \(blue)")
        #expect(screen.text(row: avatar).contains("▸ 20"))
        #expect(screen.find("Enter go to flag") != nil)

        // j selects the next (older) change; Enter closes and selects its flag, clearing the search hiding it.
        try fixture.press(.character("j"))
        screen = fixture.screen
        #expect(screen.text(row: compact).contains("▸ 20"))
        try fixture.press(.enter)
        #expect(fixture.state.mode.kind == .list)
        #expect(fixture.state.query.isEmpty)
        #expect(fixture.state.selectedKey == "list.compactRows")

        try fixture.press(.character("H"), .escape)
        #expect(fixture.state.mode.kind == .list)
        #expect(fixture.state.history == nil)
        #expect(fixture.state.selectedKey == "list.compactRows")
    }

    @Test func theOverlayScrollsToKeepTheSelectionShown() throws {
        let fixture = try Fixture(height: 16)
        for index in 0..<30 { try fixture.cliSet(["blueText": .set(index.isMultiple(of: 2) ? .on : .off)]) }
        try fixture.press(.character("H"))
        let visible = fixture.state.historyVisibleCount
        #expect(visible < 30)
        try fixture.press(.character("G"))
        #expect(fixture.state.history?.selected == 29)
        #expect(fixture.state.history?.offset == 30 - visible)
        #expect(fixture.screen.find("▸ ") != nil)
        try fixture.press(.character("g"))
        #expect(fixture.state.history?.selected == 0)
        #expect(fixture.state.history?.offset == 0)
        try fixture.press(.pageDown)
        #expect(fixture.state.history?.selected == visible)
    }

    @Test func aMalformedJournalIsReportedNotACrash() throws {
        let fixture = try Fixture()
        try fixture.press(.character("o"))
        let journalURL = try #require(try FileOverrideStore(url: fixture.url).journal()).url
        let handle = try FileHandle(forWritingTo: journalURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"time\":42}\nnot json at all\n".utf8))
        try handle.close()
        try fixture.press(.character("H"))
        let screen = fixture.screen
        #expect(
            screen.find("2 unreadable lines skipped: …/overrides.json.history.jsonl:2: $.") != nil,
            "\((0..<screen.height).map { screen.text(row: $0) }.joined(separator: "\n"))")
        #expect(screen.find("console  blueText: default → on") != nil)
        try fixture.press(.escape)
        // Undo still works past the bad lines.
        try fixture.press(.character("u"))
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .featureDefault)
    }
}
