import Flagstaff
import Foundation
import Testing

@testable import FlagstaffConsole

/// A remote source whose status the test sets, counting refreshes.
final class FakeRemoteSource: RemoteSource {
    let name: String
    private let state: AnnotatedMutex<(status: RemoteSourceStatus, refreshes: Int)>

    init(name: String, status: RemoteSourceStatus) {
        self.name = name
        state = AnnotatedMutex((status, 0))
    }

    var status: RemoteSourceStatus {
        get { state.withLock { $0.status } }
        set { state.withLock { $0.status = newValue } }
    }
    var refreshes: Int { state.withLock { $0.refreshes } }
    func refresh() async { state.withLock { $0.refreshes += 1 } }
}

/// A flag whose default comes from a remote provider.
final class FakeRemoteFeature: AnyFlag, @unchecked Sendable {
    // @unchecked: no stored state of its own; AnyFlag's state is synchronised.
    static let fetched = Date(timeIntervalSince1970: 1_800_000_000)
    override var kind: FeatureKind { .remote }
    override func resolveDefault() -> Resolution {
        let source = ResolutionSource.remote(provider: "Unleash", fetchedAt: Self.fetched)
        return Resolution(
            value: true, source: source,
            chain: [
                ResolutionStep(source: source, value: true, detail: "variant \"blue\""),
                ResolutionStep(source: .static, value: false),
            ])
    }
}

@Suite struct ConsoleRemoteTests {
    @Test func headerShowsRemoteStatusAndDetailShowsTheProvider() throws {
        let registry = try makeRegistry()
        let fetched = FakeRemoteFeature.fetched
        registry.attach(FakeRemoteSource(name: "Unleash", status: RemoteSourceStatus(lastFetch: fetched, state: .ok)))
        registry.attach(
            FakeRemoteSource(
                name: "Firebase", status: RemoteSourceStatus(lastFetch: nil, state: .failed("HTTP 503\u{1B}[2J"))))
        try registry.register(
            FakeRemoteFeature(
                key: "unleash.newCheckout", label: "New Checkout", description: nil, requiresRestart: false),
            in: "unleash")
        var state = ConsoleHarness(registry: registry, width: 140, height: 30)
        press(.end, into: &state)
        let screen = ConsoleLayout.render(state)
        let clock = RemoteStatusText.clock(fetched)
        #expect(screen.text(row: 0).contains("8 flags · 0 overridden · Unleash ok \(clock) · Firebase failed "))
        #expect(screen.cell(at: "Unleash ok")?.foreground == .blue)
        #expect(screen.text(row: screen.row(containing: "New Checkout")).contains("ON   remote"))
        #expect(
            screen.find("effective ON ← no override · remote (Unleash) ON (variant \"blue\") · default OFF") != nil,
            "\(screen.text)")
        #expect(screen.find("kind remote · remote Unleash fetched \(clock)") != nil, "\(screen.text)")
    }

    @Test func controlRRefreshesTheRemoteSources() async throws {
        let registry = try makeRegistry()
        var state = ConsoleHarness(registry: registry)
        #expect(press(.control("r"), into: &state).isEmpty)
        #expect(ConsoleLayout.render(state).text(row: 29).contains("No remote source is attached"))
        let source = FakeRemoteSource(name: "Unleash", status: RemoteSourceStatus(lastFetch: nil, state: .neverFetched))
        registry.attach(source)
        state.refreshAll()
        #expect(press(.control("r"), into: &state) == [.refreshRemoteSources])
        #expect(ConsoleLayout.render(state).text(row: 29).contains("Refreshing Unleash…"))
        // Through the effect runner: the source's refresh runs in the background, then the header repaints.
        let runner = ConsoleEffectRunner(registry: registry, terminal: ScriptedTerminal(events: []))
        runner.needsFrame = false
        try runner.send(.key(.control("r")), to: &state)
        #expect(runner.refreshTasks.count == 1)
        for task in runner.refreshTasks { await task.value }
        #expect(source.refreshes == 1)
        runner.needsFrame = false
        try runner.sendQueuedEvents(to: &state)
        #expect(runner.needsFrame, "a finished refresh repaints the header")
    }

    @Test func aFailedRemoteWithNoBoundMemberSaysWhyInTheFooter() throws {
        let registry = try makeRegistry()
        let firebase = FakeRemoteSource(
            name: "Firebase", status: RemoteSourceStatus(lastFetch: nil, state: .failed("HTTP 503 from fetch\u{1B}[2J"))
        )
        registry.attach(firebase)
        var state = ConsoleHarness(registry: registry, width: 100, height: 30)
        // No member is bound to Firebase: no detail pane names the failure, so the footer does, as the console opens.
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 0).hasSuffix("7 flags · 0 overridden · Firebase failed "), "the header's short form")
        #expect(screen.footerMessage == "Firebase failed: HTTP 503 from fetch\\u{1B}[2J · Ctrl-R retries")
        #expect(screen.find("\u{1B}") == nil, "sanitised")

        // Said once: a key clears it, and the status read again each second does not repeat it.
        press(.down, into: &state)
        _ = state.update(.statusChanged(ConsoleFeed.status(of: state.source)))
        #expect(ConsoleLayout.render(state).find("Firebase failed:") == nil)
        // Another failure is news.
        firebase.status = RemoteSourceStatus(lastFetch: nil, state: .failed("timed out"))
        _ = state.update(.statusChanged(ConsoleFeed.status(of: state.source)))
        #expect(ConsoleLayout.render(state).footerMessage == "Firebase failed: timed out · Ctrl-R retries")

        // Ctrl-R: the refresh's end says the failure again, even unchanged.
        press(.control("r"), into: &state)
        #expect(ConsoleLayout.render(state).footerMessage == "Refreshing Firebase…")
        _ = state.update(.remoteSourcesRefreshed(ConsoleFeed.status(of: state.source)))
        #expect(ConsoleLayout.render(state).footerMessage == "Firebase failed: timed out · Ctrl-R retries")
        // A refresh that works: the footer stops saying "Refreshing…"; the header says ok.
        press(.control("r"), into: &state)
        firebase.status = RemoteSourceStatus(lastFetch: FakeRemoteFeature.fetched, state: .ok)
        _ = state.update(.remoteSourcesRefreshed(ConsoleFeed.status(of: state.source)))
        screen = ConsoleLayout.render(state)
        #expect(!screen.footerMessage.contains("Refreshing") && !screen.footerMessage.contains("failed"))
        #expect(screen.text(row: 0).contains("Firebase ok"))
    }
}
