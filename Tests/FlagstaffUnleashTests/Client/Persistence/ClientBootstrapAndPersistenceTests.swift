import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: bootstrap and persistence")
struct ClientBootstrapAndPersistenceTests {
    static let bootstrap = UnleashBootstrap.toggles([
        UnleashToggle(
            name: "boot-on", enabled: true,
            variant: UnleashVariant(
                name: "blue", enabled: true, featureEnabled: true,
                payload: UnleashPayload(type: "string", value: "#00f"))),
        UnleashToggle(name: "boot-off", enabled: false),
    ])

    @Test("bootstrap toggles are served before the first fetch and kept when fetches fail")
    func bootstrapServedAndKept() async throws {
        let server = try LoopbackHTTPServer.started { _ in .status(500) }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), bootstrap: Self.bootstrap)
        #expect(client.isEnabled("boot-on"))
        #expect(client.variant("boot-on").payload?.value == "#00f")
        let recorder = EventRecorder(client)
        await client.start()
        client.stop()
        #expect(server.requestCount == 1)
        #expect(client.isEnabled("boot-on"))
        #expect(!client.isEnabled("boot-off"))
        #expect(recorder.readyCount == 0)
        #expect(recorder.errors.map(\.error) == [.httpStatus(500, url: server.url("/proxy").absoluteString)])
    }

    @Test("a bootstrap file in the frontend response shape")
    func bootstrapFile() throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let file = directory.url.appendingPathComponent("bootstrap.json")
        try Data(
            FrontendBody.json([
                FrontendBody.toggle(
                    "x", variant: ["name": "v", "enabled": true, "payload": ["type": "json", "value": "{\"a\":1}"]])
            ]).utf8
        ).write(to: file)
        let bootstrap = try UnleashBootstrap.file(file)
        let toggle = try #require(bootstrap.toggles.first)
        #expect(toggle.name == "x")
        #expect(
            toggle.variant
                == UnleashVariant(
                    name: "v", enabled: true, featureEnabled: true,
                    payload: UnleashPayload(type: "json", value: "{\"a\":1}")))
    }

    @Test("an invalid bootstrap names the file and the JSON path")
    func invalidBootstrap() throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let file = directory.url.appendingPathComponent("bad.json")
        try Data(#"{"toggles":[{"name":"x","enabled":"yes"}]}"#.utf8).write(to: file)
        let error = #expect(throws: UnleashClientError.self) { try UnleashBootstrap.file(file) }
        let message = error?.description ?? ""
        #expect(message.contains(file.path))
        #expect(message.contains("$.toggles[0].enabled"))
        let missing = #expect(throws: UnleashClientError.self) {
            try UnleashBootstrap.file(directory.url.appendingPathComponent("missing.json"))
        }
        #expect(missing?.description.contains("missing.json") == true)
    }

    static func snapshotName(_ url: URL, appName: String = "moments") -> String {
        UnleashSnapshotStore.fileName(kind: "frontend", appName: appName, url: url)
    }

    @Test("fetched toggles and the session id are persisted and served after a restart while the server fails")
    func persistenceAcrossRestart() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let failure = Locked<Int?>(nil)
        let server = try LoopbackHTTPServer.started { _ in
            if let status = failure.current { return .status(status) }
            return FrontendBody.response([
                FrontendBody.toggle(
                    "fetched",
                    variant: [
                        "name": "green", "enabled": true,
                        "feature_enabled": true,
                    ])
            ])
        }
        let url = server.url("/proxy")
        let first = UnleashClient.testing(url: url, storage: directory.url)
        await first.start()
        first.stop()
        #expect(first.isEnabled("fetched"))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(files == [Self.snapshotName(url)])
        let sessionID = try #require(first.context.sessionId)

        // The same app and server after a restart: the server now fails.
        failure.withLock { $0 = 503 }
        defer { server.stop() }
        let second = UnleashClient.testing(url: url, storage: directory.url)
        #expect(second.isEnabled("fetched"))
        #expect(second.context.sessionId == sessionID)
        let recorder = EventRecorder(second)
        await second.start()
        second.stop()
        #expect(second.isEnabled("fetched"))
        #expect(second.variant("fetched").name == "green")
        #expect(recorder.errors.map(\.operation) == [.fetch])
        #expect(server.requests.last?.query["sessionId"] == sessionID)
    }

    @Test("bootstrapOverride: the bootstrap wins over persisted toggles by default; with false the persisted win")
    func bootstrapOverride() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let server = try LoopbackHTTPServer.started { _ in FrontendBody.response([FrontendBody.toggle("fetched")]) }
        defer { server.stop() }
        let url = server.url("/proxy")
        let first = UnleashClient.testing(url: url, storage: directory.url)
        await first.start()
        first.stop()

        let overriding = UnleashClient.testing(url: url, bootstrap: Self.bootstrap, storage: directory.url)
        #expect(overriding.isEnabled("boot-on") && !overriding.isEnabled("fetched"))
        let keeping = UnleashClient.testing(
            url: url, bootstrap: Self.bootstrap, bootstrapOverride: false, storage: directory.url)
        #expect(keeping.isEnabled("fetched") && !keeping.isEnabled("boot-on"))
        // An empty bootstrap never replaces what was persisted.
        let empty = UnleashClient.testing(url: url, bootstrap: .toggles([]), storage: directory.url)
        #expect(empty.isEnabled("fetched"))
    }

    @Test("clients of other apps or servers sharing a storage directory keep snapshots of their own")
    func snapshotsPerAppAndServer() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        let server = try LoopbackHTTPServer.started { request in
            FrontendBody.response([FrontendBody.toggle(request.path == "/one" ? "one" : "two")])
        }
        defer { server.stop() }
        let clients = [
            UnleashClient.testing(url: server.url("/one"), storage: directory.url),
            UnleashClient.testing(url: server.url("/two"), storage: directory.url),
            UnleashClient.testing(url: server.url("/one"), storage: directory.url, appName: "other app/β"),
        ]
        for client in clients {
            await client.start()
            client.stop()
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        let expected = [
            Self.snapshotName(server.url("/one")), Self.snapshotName(server.url("/two")),
            Self.snapshotName(server.url("/one"), appName: "other app/β"),
        ]
        #expect(files == expected.sorted())
        #expect(expected[2].hasPrefix("unleash-frontend-other_app__-"))
        // Each finds its own again.
        let again = UnleashClient.testing(url: server.url("/two"), storage: directory.url)
        #expect(again.isEnabled("two") && !again.isEnabled("one"))
    }

    @Test("a corrupt snapshot is reported at start and the bootstrap is served")
    func corruptSnapshot() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let refused = try LoopbackRefusedPort()
        let file = directory.url.appendingPathComponent(Self.snapshotName(refused.baseURL))
        try Data(#"{"toggles":[{"na"#.utf8).write(to: file)
        let client = UnleashClient.testing(
            url: refused.baseURL, bootstrap: Self.bootstrap, bootstrapOverride: false, storage: directory.url)
        #expect(client.isEnabled("boot-on"))
        let recorder = EventRecorder(client)
        await client.start()
        client.stop()
        let persistErrors = recorder.errors.filter { $0.operation == .persist }
        #expect(persistErrors.count == 1)
        #expect(persistErrors.first?.description.contains(file.path) == true)
    }

    @Test("an unwritable storage directory is reported and the fetched toggles are still served")
    func unwritableDirectory() async throws {
        let directory = TemporaryDirectory()
        defer { directory.cleanUp() }
        try Data("a file, not a directory".utf8).write(to: directory.url)
        let server = try LoopbackHTTPServer.started { _ in FrontendBody.response([FrontendBody.toggle("a")]) }
        defer { server.stop() }
        let client = UnleashClient.testing(
            url: server.url("/proxy"), storage: directory.url.appendingPathComponent("sub"))
        let recorder = EventRecorder(client)
        await client.start()
        client.stop()
        #expect(client.isEnabled("a"))
        #expect(recorder.errors.map(\.operation) == [.persist])
    }
}
