import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

/// The server client's streaming mode against a stand-in server on 127.0.0.1: the state on connect, changes with
/// no poll, reconnection with backoff on a manual clock and `Last-Event-ID`, the fallback to polling, bad events.
@Suite("Unleash client: streaming mode")
struct ClientStreamingTests {
    /// A stand-in server: `/api/client/streaming` answers `stream` (or `streamStatus` when set), the features
    /// endpoint the fixture's state.
    private static func server(_ events: LoopbackEventStream, streamStatus: Int? = nil) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer.started { request in
            switch (request.method, request.path) {
            case ("GET", "/api/client/streaming"):
                if let streamStatus { return .status(streamStatus) }
                return .eventStream(events)
            case ("GET", "/api/client/features"):
                return .json(ClientServerModeTests.features())
            default:
                return .status(404)
            }
        }
    }

    private static func client(
        _ server: LoopbackHTTPServer, clock: ManualClock, maximumResponseBytes: Int = 16 << 20
    ) throws -> UnleashServerClient {
        try UnleashServerClient(
            url: server.url("/api"), apiKey: "*:production.key", appName: "checkout", instanceID: "pod-1",
            refreshInterval: .seconds(60), disableMetrics: true, context: UnleashContext(userId: "7"),
            deltaAPI: false, experimentalMode: .streaming,
            options: UnleashClientOptions(
                timeout: .seconds(5), maximumResponseBytes: maximumResponseBytes, minimumReconnectDelay: .seconds(1),
                maximumReconnectDelay: .seconds(8),
                now: { clock.date }, clock: clock))
    }

    /// One SSE frame as Unleash Edge writes it.
    private static func frame(_ event: String, id: Int, _ data: String) -> String {
        "event: \(event)\nid: \(id)\ndata: \(data)\n\n"
    }

    /// `{"events":[{hydration of the fixture's state}]}`.
    private static var hydration: String {
        let state = ClientServerModeTests.features().replacingOccurrences(of: "\n", with: "")
        let object = (try? JSONSerialization.jsonObject(with: Data(state.utf8))) as? [String: Any] ?? [:]
        let event: [String: Any] = [
            "eventId": 1, "type": "hydration", "features": object["features"] ?? [], "segments": [],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: ["events": [event]])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private static let turnOn =
        #"{"events":[{"eventId":2,"type":"feature-updated","feature":{"name":"off","enabled":true,"strategies":[{"name":"default"}]}}]}"#

    /// The GET requests the client sent to `path` (not the stream transport's warm-up `OPTIONS`).
    private static func requests(_ server: LoopbackHTTPServer, _ path: String) -> [LoopbackRequest] {
        server.requests.filter { $0.method == "GET" && $0.path == path }
    }

    /// A streaming client, its stand-in server and clock, started and connected: the server sent the fixture's
    /// state as `unleash-connected` (id 1, after a keep-alive comment) and `start()` returned. The caller stops the
    /// client and the server.
    private struct Connected {
        let events: LoopbackEventStream
        let server: LoopbackHTTPServer
        let clock: ManualClock
        let client: UnleashServerClient
        let recorder: EventRecorder
    }

    private static func connected(maximumResponseBytes: Int = 16 << 20) async throws -> Connected {
        let events = LoopbackEventStream()
        let server = try Self.server(events)
        let clock = ManualClock()
        let client = try Self.client(server, clock: clock, maximumResponseBytes: maximumResponseBytes)
        let recorder = EventRecorder(server: client)
        let started = Task { await client.start() }
        #expect(await events.waitForConnections(1))
        events.send(": keep-alive\n\n")
        events.send(Self.frame("unleash-connected", id: 1, Self.hydration))
        await started.value
        return Connected(events: events, server: server, clock: clock, client: client, recorder: recorder)
    }

    @Test("the state arrives on connect and each change with no poll; a dropped stream resumes with Last-Event-ID")
    func streamsChanges() async throws {
        try await offCooperativePool(timing: {
            let link = try await Self.connected()
            let (events, server, clock, client, recorder) = (
                link.events, link.server, link.clock, link.client, link.recorder
            )
            defer { server.stop() }
            #expect(client.isEnabled("vip") && !client.isEnabled("off"))
            #expect(client.isStreaming && client.experimentalMode == .streaming)
            #expect(client.currentPollInterval == nil, "no poll while streaming")

            events.send(Self.frame("unleash-updated", id: 2, Self.turnOn))
            #expect(await eventually { client.isEnabled("off") })
            #expect(
                recorder.lifecycle.prefix(3) == [.ready, .synchronized, .update(changed: ["everyone", "off", "vip"])])
            // The engine answers before the event is sent: wait for it.
            #expect(await eventually { recorder.lifecycle.last == .update(changed: ["off"]) })
            #expect(recorder.errors.isEmpty)

            let first = try #require(Self.requests(server, "/api/client/streaming").first)
            #expect(first.headers["Accept"] == "text/event-stream")
            #expect(first.headers["Authorization"] == "*:production.key")
            #expect(first.headers["unleash-appname"] == "checkout")
            #expect(first.headers["Last-Event-ID"] == nil)

            // The server goes away in the middle of event 3: the client waits on its clock, then resumes after the
            // last event it applied (2), not the last id it read.
            events.send("event: unleash-updated\nid: 3\ndata: {\"events\":[]}\n")
            events.closeConnections()
            try await clock.waitForSleepers()
            #expect(events.openedConnectionCount == 1)
            clock.advance(by: .seconds(2))
            #expect(await eventually { events.openedConnectionCount == 2 && events.openConnectionCount == 1 })
            #expect(Self.requests(server, "/api/client/streaming").last?.headers["Last-Event-ID"] == "2")
            #expect(Self.requests(server, "/api/client/features").isEmpty, "no poll while streaming")
            #expect(Self.requests(server, "/api/client/delta").isEmpty)

            // stop() closes the stream and reconnects no more.
            client.stop()
            #expect(await eventually { events.openConnectionCount == 0 })
            clock.advance(by: .seconds(3600))
            #expect(events.openedConnectionCount == 2)
        })
    }

    @Test("404 or 405 for the stream falls back to polling for good", arguments: [404, 405])
    func fallsBackToPolling(status: Int) async throws {
        try await offCooperativePool(timing: {
            let server = try Self.server(LoopbackEventStream(), streamStatus: status)
            defer { server.stop() }
            let clock = ManualClock()
            let client = try Self.client(server, clock: clock)
            let recorder = EventRecorder(server: client)
            await client.start()
            defer { client.stop() }
            #expect(client.isEnabled("vip"), "start() returns after the fallback fetch")
            #expect(!client.isStreaming && client.currentPollInterval == .seconds(60))
            #expect(recorder.errors.isEmpty, "a server without a stream is not a failure")
            #expect(Self.requests(server, "/api/client/features").count == 1)
            try await clock.waitForSleepers()
            clock.advance(by: .seconds(60))
            #expect(await eventually { Self.requests(server, "/api/client/features").count == 2 })
            #expect(Self.requests(server, "/api/client/streaming").count == 1)
        })
    }

    @Test("fetch-mode: polling hands over to polling")
    func serverAsksForPolling() async throws {
        try await offCooperativePool(timing: {
            let link = try await Self.connected()
            let (events, server, client) = (link.events, link.server, link.client)
            defer { server.stop() }
            defer { client.stop() }
            events.send("event: fetch-mode\ndata: polling\n\n")
            #expect(
                await eventually { !client.isStreaming && Self.requests(server, "/api/client/features").count == 1 })
            #expect(await eventually { events.openConnectionCount == 0 })
        })
    }

    @Test("a malformed event is reported and skipped; the client reconnects for the whole state")
    func malformedEvents() async throws {
        try await offCooperativePool(timing: {
            let link = try await Self.connected()
            let (events, server, clock, client, recorder) = (
                link.events, link.server, link.clock, link.client, link.recorder
            )
            defer { server.stop() }
            defer { client.stop() }

            // Unknown events and events without data are ignored; a body that is not a state is an error.
            events.send("event: something-new\ndata: {}\n\nevent: unleash-updated\nid: 5\n\n")
            events.send(Self.frame("unleash-updated", id: 2, #"{"events":[{"type":"feature-updated","feature":42"#))
            #expect(await eventually { !recorder.errors.isEmpty })
            let failure = try #require(recorder.errors.first)
            #expect(failure.operation == .fetch)
            #expect(failure.error.description.contains("unleash-updated event 2"))
            #expect(client.isEnabled("vip") && !client.isEnabled("off"), "the state before the bad event is kept")

            try await clock.waitForSleepers()
            clock.advance(by: .seconds(2))
            #expect(await eventually { events.openedConnectionCount == 2 && events.openConnectionCount == 1 })
            #expect(
                Self.requests(server, "/api/client/streaming").last?.headers["Last-Event-ID"] == nil,
                "asks for the whole state")
            events.send(
                Self.frame("unleash-connected", id: 3, Self.hydration.replacingOccurrences(of: "7,8", with: "9")))
            #expect(await eventually { !client.isEnabled("vip") })
            #expect(recorder.errors.count == 1)
        })
    }

    @Test("an event larger than maximumResponseBytes is reported and not applied")
    func oversizedEvent() async throws {
        try await offCooperativePool(timing: {
            let link = try await Self.connected(maximumResponseBytes: 256)
            let (client, recorder) = (link.client, link.recorder)
            defer { link.server.stop() }
            defer { client.stop() }
            let failure = try #require(recorder.errors.first)
            #expect(failure.error.isInvalidResponse)
            #expect(failure.error.message.contains("unleash-connected event 1"))
            #expect(failure.error.message.contains("larger than the limit of 256 bytes"))
            #expect(!client.isEnabled("vip") && recorder.lifecycle.isEmpty)
        })
    }
}
