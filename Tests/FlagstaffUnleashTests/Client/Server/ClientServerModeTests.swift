import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: server-side mode (local evaluation)")
struct ClientServerModeTests {
    static func features(_ version: Int = 1) -> String {
        let users = version == 1 ? "7,8" : "9"
        return """
            {"version":2,"features":[
              {"name":"vip","enabled":true,"strategies":[{"name":"userWithId","parameters":{"userIds":"\(users)"}}]},
              {"name":"everyone","enabled":true,"strategies":[{"name":"default"}],
               "variants":[{"name":"solo","weight":1000,"stickiness":"default","payload":{"type":"string","value":"hi"}}]},
              {"name":"off","enabled":false,"strategies":[{"name":"default"}]}
            ],"segments":[]}
            """
    }

    /// A stand-in server; once `failure` holds a status, it answers every request with it (a server that went
    /// down, on the same port, so a client restarted with the same URL finds its snapshot).
    static func server(
        _ body: Locked<String> = Locked(features()), keepAlive: Bool = false, failure: Locked<Int?> = Locked(nil)
    ) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer.started(keepAlive: keepAlive) { request in
            if let status = failure.current { return .status(status) }
            switch (request.method, request.path) {
            case ("GET", "/api/client/features"):
                let tag = "\"\(body.current.hashValue)\""
                if request.headers["If-None-Match"] == tag { return .status(304) }
                return .json(body.current, headers: ["ETag": tag])
            case ("POST", "/api/client/register"), ("POST", "/api/client/metrics"):
                return .status(202)
            default:
                return .status(404)
            }
        }
    }

    /// A server-side client; the delta API is off unless asked for (its tests are in ClientServerFidelityTests).
    static func client(
        _ url: URL, storage: URL? = nil, bootstrap: Data? = nil, bootstrapOverride: Bool = true,
        disableMetrics: Bool = false, deltaAPI: Bool = false, clock: ManualClock = ManualClock()
    ) throws -> UnleashServerClient {
        try UnleashServerClient(
            url: url, apiKey: "*:production.key", appName: "checkout", instanceID: "pod-1",
            environment: "production", refreshInterval: .seconds(60), disableMetrics: disableMetrics,
            context: UnleashContext(userId: "7"), bootstrap: bootstrap, deltaAPI: deltaAPI,
            // A manual clock nobody advances unless the test does: no poll or deadline comes from real time passing.
            options: UnleashClientOptions(
                timeout: .seconds(5), storageDirectory: storage, bootstrapOverride: bootstrapOverride,
                now: { clock.date }, clock: clock))
    }

    @Test("registers, polls /api/client/features with ETag and evaluates locally for any context")
    func pollAndEvaluate() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try Self.client(server.url("/api"))
        let recorder = EventRecorder(server: client)
        await client.start()
        await client.fetchFeatures()
        client.stop()

        let requests = server.requests
        try #require(requests.count == 3)
        let register = requests[0]
        #expect(register.method == "POST" && register.path == "/api/client/register")
        let body = try #require(register.jsonBody)
        #expect(body["appName"] as? String == "checkout")
        #expect(body["instanceId"] as? String == "pod-1")
        #expect(body["sdkVersion"] as? String == UnleashRequestHeaders.sdkIdentifier)
        #expect((body["strategies"] as? [String])?.contains("flexibleRollout") == true)
        #expect(body["interval"] as? Int == 60_000)
        #expect(body["environment"] as? String == "production")
        #expect(UnleashTimestamp.parse(body["started"] as? String ?? "") != nil)
        for request in requests {
            #expect(request.headers["Authorization"] == "*:production.key")
            #expect(request.headers["unleash-appname"] == "checkout")
            #expect(request.headers["unleash-instanceid"] == "pod-1")
            #expect(request.headers["unleash-sdk"] == UnleashRequestHeaders.sdkIdentifier)
            #expect(request.headers["unleash-connection-id"] == client.connectionID)
        }
        #expect(requests[1].path == "/api/client/features")
        #expect(requests[1].headers["If-None-Match"] == nil)
        #expect(requests[2].headers["If-None-Match"] != nil)

        #expect(client.isEnabled("vip"))
        #expect(client.isEnabled("vip", context: UnleashContext(userId: "8")))
        #expect(!client.isEnabled("vip", context: UnleashContext(userId: "9")))
        #expect(!client.isEnabled("off"))
        #expect(
            client.variant("everyone")
                == UnleashVariant(
                    name: "solo", enabled: true, featureEnabled: true,
                    payload: UnleashPayload(type: "string", value: "hi")))
        #expect(recorder.all.prefix(3) == [.ready, .synchronized, .update(changed: ["everyone", "off", "vip"])])
        #expect(recorder.errors.isEmpty)
    }

    @Test("metrics go to /api/client/metrics with appName, instanceId, environment and the bucket")
    func metrics() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try Self.client(server.url("/api"))
        await client.start()
        client.stop()
        _ = client.isEnabled("vip")
        _ = client.isEnabled("vip", context: UnleashContext(userId: "1"))
        _ = client.variant("everyone")
        await client.flushMetrics()
        let post = try #require(server.requests.first { $0.path == "/api/client/metrics" })
        let body = try #require(post.jsonBody)
        #expect(body["appName"] as? String == "checkout")
        #expect(body["instanceId"] as? String == "pod-1")
        #expect(body["environment"] as? String == "production")
        let toggles = (body["bucket"] as? [String: Any])?["toggles"] as? [String: [String: Any]]
        #expect(toggles?["vip"]?["yes"] as? Int == 1)
        #expect(toggles?["vip"]?["no"] as? Int == 1)
        #expect(toggles?["everyone"]?["variants"] as? [String: Int] == ["solo": 1])
    }

    @Test("faults keep the last-known-good state: 500 backs off, a body the engine rejects names the path, 401 stops")
    func faults() async throws {
        let body = Locked(Self.features())
        let status = Locked(200)
        let server = try LoopbackHTTPServer.started { request in
            if request.method == "POST" { return .status(202) }
            return status.current == 200 ? .json(body.current) : .status(status.current)
        }
        defer { server.stop() }
        let client = try Self.client(server.url("/api"), disableMetrics: true)
        let recorder = EventRecorder(server: client)
        await client.start()
        status.withLock { $0 = 500 }
        await client.fetchFeatures()
        #expect(client.currentPollInterval == .seconds(120))
        status.withLock { $0 = 200 }
        body.withLock { $0 = #"{"version":2,"features":[{"name":"vip","enabled":"sometimes","strategies":[]}]}"# }
        await client.fetchFeatures()
        #expect(recorder.errors.last?.description.contains("features[0].enabled") == true, "\(recorder.errors)")
        status.withLock { $0 = 401 }
        await client.fetchFeatures()
        #expect(client.currentPollInterval == nil)
        client.stop()
        #expect(client.isEnabled("vip"))
        #expect(client.engine.featureNames == ["vip", "everyone", "off"])
        #expect(recorder.errors.count == 3)
    }

    @Test("the state is persisted and used after a restart while the server fails; an invalid bootstrap is rejected")
    func persistence() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let failure = Locked<Int?>(nil)
        let server = try Self.server(failure: failure)
        defer { server.stop() }
        let first = try Self.client(server.url("/api"), storage: directory.url, disableMetrics: true)
        await first.start()
        first.stop()
        let name = UnleashSnapshotStore.fileName(kind: "client", appName: "checkout", url: server.url("/api"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == [name])

        failure.withLock { $0 = 503 }
        let second = try Self.client(
            server.url("/api"), storage: directory.url,
            bootstrap: Data(#"{"version":2,"features":[]}"#.utf8), disableMetrics: true)
        #expect(second.isEnabled("vip"))
        await second.start()
        second.stop()
        #expect(second.isEnabled("vip"))
        #expect(second.status.state != .ok)

        let refused = try LoopbackRefusedPort()
        let error = #expect(throws: UnleashClientError.self) {
            try Self.client(refused.baseURL, bootstrap: Data(#"{"version":2,"features":[{"name":3}]}"#.utf8))
        }
        #expect(error?.description.contains("features[0].name") == true)
    }

    @Test("attached to a registry, its flags are registered under Unleash and follow changes")
    func registry() async throws {
        let body = Locked(Self.features(1))
        let server = try Self.server(body)
        defer { server.stop() }
        let client = try Self.client(server.url("/api"), disableMetrics: true)
        let registry = AnyFeatureRegistry()
        client.attach(to: registry)
        let changes = Locked<Set<String>>([])
        let subscription = registry.onChange { change in changes.withLock { $0.formUnion(change.keys) } }
        defer { subscription.cancel() }
        await client.start()
        #expect(registry.groups.first?.features.map(\.key) == ["vip", "everyone", "off"])
        #expect(registry.flag(forKey: "vip")?.enabled == true)
        #expect(registry.flag(forKey: "off")?.enabled == false)
        changes.withLock { $0.removeAll() }
        body.withLock { $0 = Self.features(2) }
        await client.refresh()
        client.stop()
        #expect(registry.flag(forKey: "vip")?.enabled == false)
        #expect(changes.current == ["vip"])
        #expect(
            registry.flag(forKey: "vip")?.resolution.source
                == .remote(provider: "Unleash", fetchedAt: client.lastFetchTime))
    }
}
