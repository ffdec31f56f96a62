import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

/// The server-side client behaves as Unleash's Node SDK, against loopback stand-ins that answer as the Unleash
/// server's client API does (features, delta with revision ETags, register, metrics).
@Suite("Unleash client: SDK fidelity (server side)")
struct ClientServerFidelityTests {
    static let watched = #"""
        {"name":"watched","enabled":true,"impressionData":true,"strategies":[{"name":"default"}],
         "variants":[{"name":"red","weight":1000,"stickiness":"default"}]}
        """#
    static let quiet = #"{"name":"quiet","enabled":true,"strategies":[{"name":"default"}]}"#

    static func state(_ features: [String]) -> String {
        #"{"version":2,"features":["# + features.joined(separator: ",") + #"],"segments":[]}"#
    }

    /// A stand-in of the Unleash server's delta API: the revision is the ETag; no `If-None-Match` gives a hydration
    /// event, an older revision the events since it, the current one 304.
    final class DeltaServer: Sendable {
        /// Each revision's event, in order (revision n is `revisions[n - 1]`).
        let revisions: Locked<[String]>
        let hydration: Locked<String>
        let server: LoopbackHTTPServer

        init(hydration: String, keepAlive: Bool = false) throws {
            let revisions = Locked<[String]>([])
            let hydrationBody = Locked(hydration)
            self.revisions = revisions
            self.hydration = hydrationBody
            server = try LoopbackHTTPServer.started(keepAlive: keepAlive) { request in
                switch (request.method, request.path) {
                case ("GET", "/api/client/delta"):
                    let all = revisions.current
                    let current = all.count + 1
                    let known = request.headers["If-None-Match"].flatMap { Int($0.filter(\.isNumber)) }
                    if known == current { return .status(304) }
                    let events: [String]
                    if let known, known < current {
                        events = Array(all[(known - 1)...])
                    } else {
                        events = [
                            #"{"eventId":1,"type":"hydration","features":[\#(hydrationBody.current)],"segments":[]}"#
                        ]
                    }
                    return .json(
                        #"{"events":[\#(events.joined(separator: ","))]}"#, headers: ["ETag": "\"\(current)\""])
                case ("POST", _):
                    return .status(202)
                default:
                    return .status(404)
                }
            }
        }
    }

    @Test("ready at start() when a backup is loaded, synchronized after the first fetch (Node's semantics)")
    func readyThenSynchronized() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let server = try ClientServerModeTests.server()
        defer { server.stop() }
        // Without a backup: ready and synchronized both come with the first fetch.
        let first = try ClientServerModeTests.client(server.url("/api"), storage: directory.url, disableMetrics: true)
        let firstEvents = EventRecorder(server: first)
        await first.start()
        first.stop()
        #expect(firstEvents.lifecycle == [.ready, .synchronized, .update(changed: ["everyone", "off", "vip"])])

        // With a backup and a failing server: ready at start, never synchronized.
        let status = Locked(503)
        let failing = try LoopbackHTTPServer.started { _ in .status(status.current) }
        defer { failing.stop() }
        let name = UnleashSnapshotStore.fileName(kind: "client", appName: "checkout", url: server.url("/api"))
        let copy = UnleashSnapshotStore.fileName(kind: "client", appName: "checkout", url: failing.url("/api"))
        try FileManager.default.copyItem(
            at: directory.url.appendingPathComponent(name), to: directory.url.appendingPathComponent(copy))
        let second = try ClientServerModeTests.client(failing.url("/api"), storage: directory.url, disableMetrics: true)
        let secondEvents = EventRecorder(server: second)
        await second.start()
        #expect(secondEvents.lifecycle == [.ready])
        #expect(second.isEnabled("vip"))
        status.withLock { $0 = 304 }
        await second.fetchFeatures()
        await second.fetchFeatures()
        second.stop()
        #expect(secondEvents.lifecycle == [.ready, .synchronized])
    }

    @Test("a bootstrap makes the client ready at start(); it wins over the backup unless bootstrapOverride is false")
    func bootstrapReadyAndOverride() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let failure = Locked<Int?>(nil)
        let server = try ClientServerModeTests.server(failure: failure)
        defer { server.stop() }
        let url = server.url("/api")
        let first = try ClientServerModeTests.client(url, storage: directory.url, disableMetrics: true)
        await first.start()
        first.stop()
        failure.withLock { $0 = 500 }
        let bootstrap = Data(Self.state([Self.quiet]).utf8)

        let overriding = try ClientServerModeTests.client(
            url, storage: directory.url, bootstrap: bootstrap, disableMetrics: true)
        #expect(overriding.engine.featureNames == ["quiet"])
        let events = EventRecorder(server: overriding)
        await overriding.start()
        overriding.stop()
        #expect(events.lifecycle == [.ready])

        let keeping = try ClientServerModeTests.client(
            url, storage: directory.url, bootstrap: bootstrap, bootstrapOverride: false, disableMetrics: true)
        #expect(keeping.engine.featureNames == ["vip", "everyone", "off"])
        // A bootstrap without features never wins.
        let empty = try ClientServerModeTests.client(
            url, storage: directory.url, bootstrap: Data(Self.state([]).utf8), disableMetrics: true)
        #expect(empty.engine.featureNames == ["vip", "everyone", "off"])
    }

    @Test("impression events for features with impressionData, from isEnabled and variant, with the context used")
    func impressions() async throws {
        let server = try LoopbackHTTPServer.started { request in
            request.method == "POST" ? .status(202) : .json(Self.state([Self.watched, Self.quiet]))
        }
        defer { server.stop() }
        let client = try ClientServerModeTests.client(server.url("/api"), disableMetrics: true)
        await client.start()
        client.stop()
        // Nobody listens: nothing is built.
        #expect(client.isEnabled("watched"))
        let recorder = EventRecorder(server: client)
        let context = UnleashContext(userId: "u5", properties: ["plan": "pro"])
        #expect(client.isEnabled("watched", context: context))
        #expect(client.isEnabled("quiet", context: context))
        #expect(client.variant("watched", context: context).name == "red")
        _ = client.variant("quiet")
        let completed = client.complete(context)
        #expect(
            recorder.impressions == [
                UnleashImpression(
                    kind: .isEnabled, featureName: "watched", enabled: true, variant: nil, context: completed),
                UnleashImpression(
                    kind: .getVariant, featureName: "watched", enabled: true, variant: "red", context: completed),
            ])
        #expect(completed.appName == "checkout" && completed.environment == "production")
    }

    @Test("headers and bodies: Unleash-Client-Spec, unleash-interval, connectionId, specVersion and platformName")
    func headersAndBodies() async throws {
        let server = try ClientServerModeTests.server()
        defer { server.stop() }
        let client = try UnleashServerClient(
            url: server.url("/api"), apiKey: "*:production.key", appName: "checkout", instanceID: "pod-1",
            refreshInterval: .seconds(15), metricsInterval: .milliseconds(60_500), deltaAPI: false,
            options: UnleashClientOptions(clock: ManualClock()))
        await client.start()
        _ = client.isEnabled("vip")
        await client.stop(flushingMetrics: true)
        let requests = server.requests
        let register = try #require(requests.first { $0.path == "/api/client/register" })
        let fetch = try #require(requests.first { $0.path == "/api/client/features" })
        let metrics = try #require(requests.first { $0.path == "/api/client/metrics" })

        #expect(fetch.headers["Unleash-Client-Spec"] == "6.1.0")
        #expect(fetch.headers["unleash-interval"] == "15000")
        #expect(metrics.headers["unleash-interval"] == "60500")
        for request in requests { #expect(request.headers["unleash-connection-id"] == client.connectionID) }

        let registration = try #require(register.jsonBody)
        #expect(registration["connectionId"] as? String == client.connectionID)
        #expect(registration["specVersion"] as? String == "6.1.0")
        #expect(registration["platformName"] as? String == "swift")
        #expect((registration["platformVersion"] as? String)?.isEmpty == false)
        #expect(registration["interval"] as? Int == 60_500, "the metrics interval, as Node sends it")

        let posted = try #require(metrics.jsonBody)
        #expect(posted["connectionId"] as? String == client.connectionID)
        #expect(posted["instanceId"] as? String == "pod-1")
        #expect(posted["specVersion"] as? String == "6.1.0")
        #expect(posted["platformName"] as? String == "swift")
    }

    @Test("the delta API: hydration first, then events since the ETag's revision, 304 when current; persisted whole")
    func deltaAPI() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let delta = try DeltaServer(hydration: Self.quiet)
        defer { delta.server.stop() }
        let client = try ClientServerModeTests.client(
            delta.server.url("/api"), storage: directory.url, disableMetrics: true, deltaAPI: true)
        let recorder = EventRecorder(server: client)
        await client.start()
        #expect(client.usesDeltaAPI)
        #expect(client.engine.featureNames == ["quiet"])

        delta.revisions.withLock {
            $0.append(#"{"eventId":2,"type":"feature-updated","feature":\#(Self.watched)}"#)
            $0.append(#"{"eventId":3,"type":"feature-removed","featureName":"quiet","project":"default"}"#)
        }
        await client.fetchFeatures()
        await client.fetchFeatures()
        client.stop()
        let gets = delta.server.requests.filter { $0.method == "GET" }
        #expect(gets.map(\.path) == Array(repeating: "/api/client/delta", count: 3))
        #expect(gets.map { $0.headers["If-None-Match"] } == [nil, "\"1\"", "\"3\""])
        #expect(client.engine.featureNames == ["watched"])
        #expect(recorder.updates == [["quiet"], ["quiet", "watched"]])
        #expect(recorder.errors.isEmpty)

        // What was persisted is the whole state, which another client loads as a features body.
        let failing = try LoopbackRefusedPort()
        let copy = try Data(
            contentsOf: directory.url.appendingPathComponent(
                UnleashSnapshotStore.fileName(kind: "client", appName: "checkout", url: delta.server.url("/api"))))
        let loaded = try ClientServerModeTests.client(failing.baseURL, bootstrap: copy, disableMetrics: true)
        #expect(loaded.engine.featureNames == ["watched"])
        #expect(loaded.isEnabled("watched"))
    }

    @Test("a server without the delta API (404 there): the same fetch falls back to /api/client/features for good")
    func deltaFallback() async throws {
        let server = try ClientServerModeTests.server()
        defer { server.stop() }
        let client = try ClientServerModeTests.client(server.url("/api"), disableMetrics: true, deltaAPI: true)
        let recorder = EventRecorder(server: client)
        await client.start()
        await client.fetchFeatures()
        client.stop()
        #expect(
            server.requests.map(\.path) == ["/api/client/delta", "/api/client/features", "/api/client/features"])
        #expect(!client.usesDeltaAPI)
        #expect(client.isEnabled("vip"))
        #expect(recorder.errors.isEmpty)
        #expect(client.currentPollInterval == .seconds(60))
    }

    @Test("refreshInterval 0 and metricsInterval 0: one fetch at start, no loops on the clock")
    func intervalsZero() async throws {
        let server = try ClientServerModeTests.server()
        defer { server.stop() }
        let clock = ManualClock()
        let client = try UnleashServerClient(
            url: server.url("/api"), apiKey: "k", appName: "checkout", refreshInterval: .zero, metricsInterval: .zero,
            deltaAPI: false, options: UnleashClientOptions(clock: clock))
        await client.start()
        #expect(client.isEnabled("vip", context: UnleashContext(userId: "7")))
        #expect(client.currentPollInterval == nil && client.currentMetricsInterval == nil)
        #expect(client.poller.tasks.names.isEmpty && clock.sleeperCount == 0)
        let register = try #require(server.requests.first { $0.path == "/api/client/register" })
        #expect(register.jsonBody?["interval"] as? Int == 0)
        client.stop()
    }
}

extension ClientServerFidelityTests {
    static let segmented = #"""
        {"name":"segmented","enabled":true,"strategies":[{"name":"default","segments":[7]}]}
        """#

    static func segment(_ users: String) -> String {
        #"{"id":7,"constraints":[{"contextName":"userId","operator":"IN","values":[\#(users)]}]}"#
    }

    @Test("a segment changed by a delta event changes the features that use it, and is persisted with them")
    func deltaSegments() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let delta = try DeltaServer(hydration: Self.segmented + "," + Self.quiet)
        defer { delta.server.stop() }
        let client = try ClientServerModeTests.client(
            delta.server.url("/api"), storage: directory.url, disableMetrics: true, deltaAPI: true)
        let recorder = EventRecorder(server: client)
        await client.start()
        // Without the segment the strategy cannot match.
        #expect(!client.isEnabled("segmented", context: UnleashContext(userId: "1")))
        delta.revisions.withLock {
            $0.append(#"{"eventId":2,"type":"segment-updated","segment":\#(Self.segment("\"1\""))}"#)
        }
        await client.fetchFeatures()
        #expect(client.isEnabled("segmented", context: UnleashContext(userId: "1")))
        #expect(!client.isEnabled("segmented", context: UnleashContext(userId: "2")))
        delta.revisions.withLock {
            $0.append(#"{"eventId":3,"type":"segment-updated","segment":\#(Self.segment("\"2\""))}"#)
        }
        await client.fetchFeatures()
        client.stop()
        #expect(recorder.updates == [["quiet", "segmented"], ["segmented"], ["segmented"]])

        let persisted = try Data(
            contentsOf: directory.url.appendingPathComponent(
                UnleashSnapshotStore.fileName(kind: "client", appName: "checkout", url: delta.server.url("/api"))))
        let refused = try LoopbackRefusedPort()
        let loaded = try ClientServerModeTests.client(refused.baseURL, bootstrap: persisted, disableMetrics: true)
        #expect(loaded.isEnabled("segmented", context: UnleashContext(userId: "2")))
        #expect(!loaded.isEnabled("segmented", context: UnleashContext(userId: "1")))
    }
}
