import Flagstaff
import Foundation
import Testing

@testable import FlagstaffConsole

/// A flag whose default comes from the remote provider "Firebase".
final class FakeFirebaseFeature: AnyFlag, @unchecked Sendable {
    // @unchecked: no stored state of its own; AnyFlag's state is synchronised.
    override var kind: FeatureKind { .remote }
    override func resolveDefault() -> Resolution {
        Resolution(
            value: false, source: .static,
            chain: [
                ResolutionStep(source: .remote(provider: "Firebase", fetchedAt: nil), value: nil),
                ResolutionStep(source: .static, value: false),
            ])
    }
}

/// A flag server attached as a remote source (`flagstaff console --serve`).
final class FakeServedSource: ServedEvaluationReport {
    let name: String
    private let apps = AnnotatedMutex<[ConnectedApp]>([])
    init(name: String) { self.name = name }
    /// The apps the test says are connected.
    var connectedApps: [ConnectedApp] {
        get { apps.withLock { $0 } }
        set { apps.withLock { $0 = newValue } }
    }
    var status: RemoteSourceStatus { RemoteSourceStatus(lastFetch: nil, state: .ok) }
    func refresh() async {}
    func evaluationSummary(forKey key: String) -> String? { nil }
}

/// The header's priority order — title, counts, restart, serve, remote status — its short forms, and remote
/// errors kept out of it (issue 28 item 2).
@Suite struct ConsoleHeaderTests {
    func header(_ registry: AnyFeatureRegistry, width: Int) -> String {
        ConsoleLayout.render(ConsoleHarness(registry: registry, width: width, height: 30)).text(row: 0)
    }

    @Test func theTitleAndCountsComeFirstAndShortFormsFit() throws {
        let registry = try makeRegistry()
        try registry.setOverride(.enabled, for: try #require(registry.flag(forKey: "useTabBarNav")))
        registry.attach(
            FakeRemoteSource(name: "firebase", status: RemoteSourceStatus(lastFetch: nil, state: .neverFetched)))
        #expect(
            header(registry, width: 100).hasSuffix(
                "7 flags · 1 overridden · 1 needs restart · firebase not fetched yet "))
        #expect(header(registry, width: 100).hasPrefix(" Flagstaff · Moments demo "))
        // 80 columns: the title whole, short forms for the rest.
        #expect(header(registry, width: 80).hasPrefix(" Flagstaff · Moments demo "))
        #expect(header(registry, width: 80).hasSuffix(" 7 flags 1 ovr 1⟳ · firebase not fetched "))
        // Narrower: the remote status goes before the title loses "Flagstaff ·"; the counts stay.
        #expect(header(registry, width: 50).hasPrefix(" Flagstaff · Moments demo  "))
        #expect(header(registry, width: 50).hasSuffix("  7 flags 1 ovr 1⟳ "))
        #expect(header(registry, width: 40).hasPrefix(" Moments demo  "))
        #expect(header(registry, width: 40).hasSuffix("  7 flags 1 ovr 1⟳ "))
    }

    @Test func aRemoteErrorIsNotInTheHeaderButInTheDetailPaneOfItsMembers() throws {
        let registry = try makeRegistry()
        registry.attach(
            FakeRemoteSource(
                name: "Firebase",
                status: RemoteSourceStatus(
                    lastFetch: nil, state: .failed("HTTP 503 from https://firebaseremoteconfig.googleapis.com/v1/…"))))
        try registry.register(
            FakeFirebaseFeature(
                key: "moments.remoteBadge", label: "Remote Badge", description: nil, requiresRestart: false),
            in: "moments")
        var state = ConsoleHarness(registry: registry, width: 140, height: 30)
        var screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 0).hasSuffix(" 8 flags · 0 overridden · Firebase failed "), "\(screen.text(row: 0))")
        #expect(screen.find("HTTP 503", inRow: 0) == nil, "not in the header")
        #expect(screen.footerMessage.hasPrefix("Firebase failed: HTTP 503"), "the footer says it once, as it opens")
        press(.down, into: &state)
        screen = ConsoleLayout.render(state)
        #expect(screen.find("HTTP 503") == nil, "no error message while no member bound to it is selected")
        press(.character("/"), into: &state)
        type("remote badge", into: &state)
        screen = ConsoleLayout.render(state)
        #expect(
            screen.find("kind remote · Firebase failed: HTTP 503 from https://firebaseremoteconfig") != nil,
            "\(screen.text)")
    }

    @Test func theServerSummaryShowsAtOrdinaryWidths() throws {
        let registry = try makeRegistry()
        registry.attach(FakeServedSource(name: "serve 127.0.0.1:4242 · 2 SDKs: ios-app, checkout"))
        #expect(
            header(registry, width: 100)
                == " Flagstaff · Moments demo 7 flags · 0 overridden · serve 127.0.0.1:4242 · 2 SDKs: ios-app, checkout "
        )
        #expect(header(registry, width: 90).hasSuffix(" 7 flags · 0 overridden · serve 127.0.0.1:4242 · 2 SDKs "))
        #expect(header(registry, width: 90).hasPrefix(" Flagstaff · Moments demo "))
        #expect(header(registry, width: 80).hasSuffix(" 7 flags 0 ovr · serve 127.0.0.1:4242 · 2 SDKs "))
        #expect(header(registry, width: 60).hasSuffix(" 7 flags 0 ovr · serve · 2 SDKs "))
    }
}
