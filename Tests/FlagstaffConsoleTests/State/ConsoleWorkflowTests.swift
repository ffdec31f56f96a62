import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffConsole

/// `t` (override expiry and the time left), the `Stale` scope, and the bisect banner, against a file store and a
/// registry on a ``ManualClock``.
@Suite struct ConsoleWorkflowTests {
    /// A file store in a fresh directory and a registry whose clocks (timer and wall clock) are one ManualClock.
    final class Fixture: Sendable {
        let directory: URL
        let url: URL
        let clock = ManualClock()
        let registry: AnyFeatureRegistry

        init(storeText: String? = nil) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-workflow-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            url = directory.appendingPathComponent("overrides.json")
            if let storeText { try Data(storeText.utf8).write(to: url) }
            let manifest = RegistryManifest(
                name: "Workflow",
                flags: [
                    RegistryManifest.Flag(key: "blueText", label: "Blue Text", default: false),
                    RegistryManifest.Flag(key: "darkMode", label: "Dark Mode", default: true),
                    RegistryManifest.Flag(key: "newCheckout", label: "New Checkout", default: false),
                ])
            registry = try AnyFeatureRegistry(
                manifest: manifest, store: FileOverrideStore(url: url, wallClock: clock),
                options: RegistryOptions(storeWatchInterval: nil, clock: clock, wallClock: clock))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func open(height: Int = 30) -> (ConsoleHarness, ConsoleEffectRunner) {
            (
                ConsoleHarness(registry: registry, width: 100, height: height),
                ConsoleEffectRunner(registry: registry, terminal: ScriptedTerminal(events: []))
            )
        }

        func select(_ label: String, in state: inout ConsoleHarness) {
            while state.selectedFlag?.label != label, state.cursor < state.rows.count - 1 {
                _ = state.update(.key(.down))
            }
        }
    }

    // MARK: Expiry

    @Test func tOffersFourChoicesAndSetsTheExpiryInOneWrite() throws {
        let fixture = try Fixture()
        try fixture.registry.setOverrides(["blueText": .enabled])
        var (state, runner) = fixture.open()
        defer { runner.stop() }

        try runner.send(.key(.character("t")), to: &state)
        #expect(state.mode.kind == .expiry)
        var screen = ConsoleLayout.render(state)
        for label in ["▸ 1 hour", "1 day", "1 week", "never", "Now: never"] {
            #expect(screen.row(containing: label) >= 0, "\(label)")
        }
        try runner.send(.key(.enter), to: &state)
        #expect(state.mode.kind == .list)
        #expect(fixture.registry.overrideExpiry(forKey: "blueText")?.expiresAt == fixture.clock.date + 3600)
        screen = ConsoleLayout.render(state)
        let row = screen.row(containing: "Blue Text")
        #expect(row >= 0 && screen.row(containing: "ON   ⏱ 1h") == row)
        #expect(screen.row(containing: "⏱ expires in 1h (") >= 0)  // the detail pane

        fixture.clock.advance(by: .seconds(60))
        #expect(ConsoleLayout.render(state).row(containing: "ON   ⏱ 1h") == row, "the time is the last tick's")
        try runner.tick(sinceLastFrame: .seconds(60), to: &state.state)
        #expect(ConsoleLayout.render(state).row(containing: "ON   ⏱ 59m") == row)

        // A week, then never: the same override, permanent again.
        try runner.send(.key(.character("t")), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Now: expires in 59m") >= 0)
        for key in [ConsoleKey.down, .down, .down, .enter] { try runner.send(.key(key), to: &state) }
        #expect(fixture.registry.overrideExpiry(forKey: "blueText") == nil)
        #expect(try FileOverrideStore(url: fixture.url).load() == ["blueText": .on])
        #expect(ConsoleLayout.render(state).row(containing: "ON   override") == row)
    }

    @Test func tOnAFlagWithoutAnOverrideSaysSoAndEscCancels() throws {
        let fixture = try Fixture()
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        try runner.send(.key(.character("t")), to: &state)
        #expect(state.mode.kind == .list)
        #expect(ConsoleLayout.render(state).row(containing: "blueText has no override") >= 0)

        try fixture.registry.setOverrides(["blueText": .enabled])
        try runner.sendQueuedEvents(to: &state)
        for key in [ConsoleKey.escape, .character("q"), .character("t")] {
            try runner.send(.key(.character("t")), to: &state)
            try runner.send(.key(key), to: &state)
            #expect(state.mode.kind == .list)
        }
        #expect(fixture.registry.overrideExpiry(forKey: "blueText") == nil)
    }

    @Test func anOverrideThatExpiresWhileTheConsoleIsOpenDisappearsAndTheRowSaysSo() async throws {
        let fixture = try Fixture()
        try fixture.registry.setOverrideValues(["blueText": .set(.on)], expiresAt: fixture.clock.date + 3600)
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        #expect(state.counts.overridden == 1)
        let row = ConsoleLayout.render(state).row(containing: "Blue Text")
        #expect(ConsoleLayout.render(state).row(containing: "ON   ⏱ 1h") == row)

        try await fixture.clock.waitForSleepers()
        fixture.clock.advance(by: .seconds(3600))
        // The registry's timer republishes; its change event reaches the console through the inbox.
        #expect(await eventually { (try? runner.sendQueuedEvents(to: &state)) != nil && state.counts.overridden == 0 })
        let screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "OFF  expired") == row)
        #expect(screen.row(containing: "override expired 20") >= 0)  // detail pane, with the time
        #expect(fixture.registry.flag(forKey: "blueText")?.enabled == false)
    }

    @Test func ticksRepaintEachSecondOnlyWhileATimeLeftIsShown() throws {
        let fixture = try Fixture()
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        #expect(state.tick(sinceLastFrame: .seconds(2)).isEmpty)
        try fixture.registry.setOverrideValues(["blueText": .set(.on)], expiresAt: fixture.clock.date + 3600)
        try runner.sendQueuedEvents(to: &state)
        #expect(state.tick(sinceLastFrame: .seconds(2)) == [.repaint])
        #expect(state.tick(sinceLastFrame: .milliseconds(500)).isEmpty)
    }

    // MARK: Stale scope

    @Test func theStaleScopeListsOrphansNoOpsAndExpiredOverrides() throws {
        let fixture = try Fixture(
            storeText: """
                {"version":1,"overrides":{"gone.flag":"on","darkMode":"on","blueText":"on","newCheckout":"on"},\
                "expiry":{"newCheckout":{"at":"2020-01-01T00:00:00Z","set":"2019-12-31T00:00:00Z"}}}
                """)
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        for _ in 0..<4 { try runner.send(.key(.tab), to: &state) }
        #expect(state.showsStale)
        let screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "[Stale]") == 1)
        #expect(screen.row(containing: " Overridden ") == 1)
        #expect(state.rows.map(\.key) == ["darkMode", "gone.flag", "newCheckout"])
        let orphan = screen.row(containing: "gone.flag")
        #expect(screen.row(containing: "orphan") == orphan)
        #expect(screen.cell(at: "gone.flag")?.style.foreground == .grey)
        #expect(screen.row(containing: "New Checkout") == screen.row(containing: "expired"))
        #expect(screen.row(containing: "Dark Mode") >= 0)
        #expect(screen.row(containing: "blueText") < 0 && screen.row(containing: "Blue Text") < 0)

        // Tab goes back to All; Shift-Tab from All comes to Stale.
        try runner.send(.key(.tab), to: &state)
        #expect(!state.showsStale && state.scope == .all && !state.isFlat)
        try runner.send(.key(.backTab), to: &state)
        #expect(state.showsStale)
        try runner.send(.key(.backTab), to: &state)
        #expect(!state.showsStale && state.scope == .overridden)
    }

    @Test func rRemovesAnOrphanAndTheOtherKeysExplainWhyNot() throws {
        let fixture = try Fixture(storeText: #"{"version":1,"overrides":{"gone.flag":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        for _ in 0..<4 { try runner.send(.key(.tab), to: &state) }
        #expect(state.selectedKey == "gone.flag")
        #expect(ConsoleLayout.render(state).row(containing: "gone.flag — not in this registry") >= 0)

        try runner.send(.key(.character("o")), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "gone.flag is not in this registry (orphan)") >= 0)
        #expect(try FileOverrideStore(url: fixture.url).load() == ["gone.flag": .on])

        try runner.send(.key(.character("r")), to: &state)
        #expect(try FileOverrideStore(url: fixture.url).load() == [:])
        #expect(state.rows.isEmpty)
        #expect(ConsoleLayout.render(state).row(containing: "No stale overrides (orphans, no-ops, expired)") >= 0)
    }

    @Test func rRemovesAnExpiredEntryFromTheStore() throws {
        let fixture = try Fixture(
            storeText: """
                {"version":1,"overrides":{"newCheckout":"on","blueText":"on"},\
                "expiry":{"newCheckout":{"at":"2020-01-01T00:00:00Z","set":"2019-12-31T00:00:00Z"}}}
                """)
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        for _ in 0..<4 { try runner.send(.key(.tab), to: &state) }
        #expect(state.rows.map(\.key) == ["newCheckout"])
        try runner.send(.key(.character("r")), to: &state)
        #expect(try FileOverrideStore(url: fixture.url).loadSnapshot().overrides == ["blueText": .on])
        #expect(state.rows.isEmpty)
    }

    @Test func theStaleScopeFollowsWritesAndTheQuery() throws {
        let fixture = try Fixture()
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        for _ in 0..<4 { try runner.send(.key(.tab), to: &state) }
        #expect(state.rows.isEmpty)
        try fixture.registry.setOverrideValues(["old.a": .set(.on), "old.b": .set(.off), "darkMode": .set(.on)])
        try runner.sendQueuedEvents(to: &state)
        #expect(state.rows.map(\.key) == ["darkMode", "old.a", "old.b"])
        try runner.send(.key(.character("/")), to: &state)
        type("old.b", into: &state)
        #expect(state.rows.map(\.key) == ["old.b"])
    }

    // MARK: Help

    @Test func theHelpOverlayListsTheProfileAndExpiryKeysAndTheStaleScope() {
        let lines = ConsoleLayout.helpLines
        #expect(lines.contains { $0.hasPrefix("p ") && $0.contains("profiles: what applying each would change") })
        #expect(lines.contains { $0.hasPrefix("t ") && $0.contains("1 hour, 1 day, 1 week, never") })
        #expect(lines.contains { $0.hasPrefix("Tab ") && $0.contains("Overridden, Stale") })
    }

    // MARK: Bisect banner

    @Test func theBisectBannerShowsTheStepTheKeysUnderTestAndWhatRemains() throws {
        let fixture = try Fixture()
        try fixture.registry.setOverrideValues([
            "blueText": .set(.on), "darkMode": .set(.off), "newCheckout": .set(.on),
        ])
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        #expect(state.bisect == nil)
        let listHeight = state.listHeight

        try Bisection(fixture.registry).start()
        try runner.sendQueuedEvents(to: &state)
        var screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "Bisect step 1 · testing 2 of 3: blueText, darkMode") == 3)
        #expect(screen.row(containing: "at most 2 answers left") == 3)
        #expect(state.listHeight == listHeight - 1)
        #expect(screen.row(containing: "Blue Text") == 4)

        try Bisection(fixture.registry).answer(.bad)
        try runner.sendQueuedEvents(to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Bisect step 2 · testing 1 of 2: blueText") == 3)
        try Bisection(fixture.registry).answer(.good)
        try runner.sendQueuedEvents(to: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "Bisect done: the culprit is darkMode") == 3)

        try Bisection(fixture.registry).reset()
        try runner.sendQueuedEvents(to: &state)
        #expect(state.bisect == nil)
        #expect(ConsoleLayout.render(state).row(containing: "Bisect") < 0)
    }

    @Test func aChangeOfAFlagReadsNoBisectFileTheStoreReadAgainDoes() throws {
        let fixture = try Fixture()
        try fixture.registry.setOverrideValues([
            "blueText": .set(.on), "darkMode": .set(.off), "newCheckout": .set(.on),
        ])
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        try Bisection(fixture.registry).start()
        try runner.sendQueuedEvents(to: &state)
        #expect(state.bisect?.step == 1)
        // The session file made unreadable behind the registry's back: a read now would show no banner.
        try Data("not a session".utf8).write(to: try FileOverrideStore(url: fixture.url).bisectStateURL())
        try fixture.registry.setOverrideValues(["newCheckout": .set(.off)])
        try runner.sendQueuedEvents(to: &state)
        #expect(state.bisect?.step == 1, "a change made through the registry read the bisect file")
        // Another process's change: the store read again, the bisect file too.
        try FileOverrideStore(url: fixture.url).write(["darkMode": .set(.on)])
        fixture.registry.refreshFromStore()
        try runner.sendQueuedEvents(to: &state)
        #expect(state.bisect == nil, "the store read again: the bisect file is read again")
    }
}
