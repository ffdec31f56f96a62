import Flagstaff
import Foundation
import Testing

@testable import FlagstaffConsole

/// The connected apps overlay (`A`, issue 27 item 5): filled by `.appsRead` events, read again once a second
/// while open, rendered from the state.
@Suite struct ConsoleAppsTests {
    /// A console on the demo registry with a flag server attached.
    func served(width: Int = 100, height: Int = 30) throws -> (ConsoleHarness, FakeServedSource) {
        let registry = try makeRegistry()
        let server = FakeServedSource(name: "serve 127.0.0.1:4242 · 2 SDKs: ios-app, checkout")
        registry.attach(server)
        return (ConsoleHarness(registry: registry, width: width, height: height), server)
    }

    func app(
        _ name: String, sdk: String? = nil, address: String? = nil, _ connection: ConnectedApp.Connection = .polling,
        seconds: TimeInterval = 0, _ freshness: ConnectedApp.Freshness = .upToDate, now: Date
    ) -> ConnectedApp {
        ConnectedApp(
            name: name, sdk: sdk, address: address, connection: connection,
            lastSeen: now.addingTimeInterval(-seconds), freshness: freshness)
    }

    @Test func theOverlayListsTheAppsAndFollowsThemAsTheyComeAndGo() throws {
        var (state, server) = try served()
        let now = state.now
        #expect(ConsoleLayout.render(state).find("A apps") != nil, "the footer offers A with a server")
        server.connectedApps = [
            app(
                "ios-app", sdk: "unleash-client-swift:2.1.0", address: "127.0.0.1:50122", .streaming("Unleash"),
                seconds: 2, now: now),
            app("checkout", address: "10.0.0.7:40000", seconds: 200, .behind(changes: 2), now: now),
        ]
        let effects = press(.character("A"), into: &state)
        #expect(effects.isEmpty, "the read was answered")
        #expect(state.mode.kind == .apps)
        var screen = ConsoleLayout.render(state)
        #expect(screen.find(" Connected apps ") != nil, "\(screen.text)")
        #expect(screen.find("2 apps · 1 streaming · 1 polling · 1 behind") != nil, "\(screen.text)")
        #expect(screen.find("ios-app  unleash-client-swift:2.1.0") != nil)
        #expect(
            screen.find("streaming (Unleash) · 127.0.0.1:50122 · seen 2 s ago · up to date") != nil, "\(screen.text)")
        #expect(screen.find("checkout") != nil)
        #expect(screen.find("polling · 10.0.0.7:40000 · seen 3 min ago · behind by 2 changes") != nil, "\(screen.text)")
        #expect(screen.find("Esc close") != nil)

        // The stream closes and the poller fetches the newest values: the next tick reads them.
        server.connectedApps = [app("checkout", address: "10.0.0.7:40000", seconds: 0, now: now)]
        _ = state.tick(sinceLastFrame: .seconds(1))
        screen = ConsoleLayout.render(state)
        #expect(screen.find("ios-app  unleash") == nil, "\(screen.text)")
        #expect(screen.find("1 app · 0 streaming · 1 polling · all up to date") != nil, "\(screen.text)")
        #expect(screen.find("polling · 10.0.0.7:40000 · seen just now · up to date") != nil, "\(screen.text)")

        server.connectedApps = []
        _ = state.tick(sinceLastFrame: .seconds(1))
        #expect(ConsoleLayout.render(state).find("No app has connected yet") != nil)

        press(.escape, into: &state)
        #expect(state.mode.kind == .list && state.appsOverlay == nil)
        #expect(ConsoleLayout.render(state).find("Connected apps") == nil)
    }

    @Test func theAppsAreReadOnTicksOnlyWhileTheOverlayIsOpen() throws {
        var (state, _) = try served()
        let now = state.now
        var bare = state.state
        #expect(bare.update(.tick(now: now, sinceLastFrame: .seconds(1))) == [.read(.status)])
        press(.character("A"), into: &state)
        bare = state.state
        #expect(bare.update(.tick(now: now, sinceLastFrame: .seconds(1))) == [.read(.status), .read(.connectedApps)])
        #expect(bare.update(.tick(now: now, sinceLastFrame: .milliseconds(200))) == [], "not before a second")
        // An answer arriving after the overlay closed is dropped.
        press(.character("q"), into: &state)
        bare = state.state
        _ = bare.update(.appsRead([app("late", now: now)]))
        #expect(bare.appsOverlay == nil && bare.mode.kind == .list)
    }

    @Test func withoutAServerTheKeySaysWhatItNeeds() throws {
        var state = ConsoleHarness(registry: try makeRegistry())
        #expect(ConsoleLayout.render(state).find("A apps") == nil, "no footer item without a server")
        press(.character("A"), into: &state)
        #expect(state.mode.kind == .list)
        #expect(state.statusMessage?.contains("console --serve") == true)
    }

    @Test func namesFromClientsAreSanitisedAndEveryFreshnessIsWorded() throws {
        var (state, server) = try served()
        let now = state.now
        server.connectedApps = [
            app("evil\u{1b}[31mred", sdk: "sdk\u{7}bell", .streaming("OFREP"), .notFetched, now: now),
            app("far-behind", seconds: 7_200, .behind(changes: nil), now: now),
            app("one-behind", seconds: 30, .behind(changes: 1), now: now),
        ]
        press(.character("A"), into: &state)
        let screen = ConsoleLayout.render(state)
        #expect(!screen.text.contains("\u{1b}") && !screen.text.contains("\u{7}"))
        #expect(screen.find("streaming (OFREP) · seen just now · no values fetched yet") != nil, "\(screen.text)")
        #expect(screen.find("seen 2 h ago · behind by more changes than the server keeps") != nil, "\(screen.text)")
        #expect(screen.find("seen 30 s ago · behind by 1 change") != nil, "\(screen.text)")
        #expect(screen.find("3 apps · 1 streaming · 2 polling · 2 behind") != nil, "\(screen.text)")
    }

    @Test func manyAppsScrollAndTheFooterSaysWhichAreShown() throws {
        var (state, server) = try served()
        let now = state.now
        server.connectedApps = (1...20).map { app("app\($0)", now: now) }
        press(.character("A"), into: &state)
        var screen = ConsoleLayout.render(state)
        #expect(screen.find("1-11 of 20") != nil, "\(screen.text)")
        #expect(screen.find("app1 ") != nil && screen.find("app12") == nil)
        press(.character("j"), into: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.find("2-12 of 20") != nil && screen.find("app12") != nil && screen.find("app1 ") == nil)
        press(.pageDown, .pageDown, .pageDown, into: &state)
        #expect(state.appsOverlay?.offset == 19, "stops at the last app")
        press(.pageUp, .pageUp, .pageUp, into: &state)
        #expect(state.appsOverlay?.offset == 0)
    }

    @Test func aSmallTerminalStillShowsTheSummary() throws {
        var (state, server) = try served(width: 40, height: 10)
        server.connectedApps = [app("ios-app", .streaming("Unleash"), now: state.now)]
        press(.character("A"), into: &state)
        let screen = ConsoleLayout.render(state)
        #expect(screen.find("1 app · 1 streaming") != nil, "\(screen.text)")
    }
}
