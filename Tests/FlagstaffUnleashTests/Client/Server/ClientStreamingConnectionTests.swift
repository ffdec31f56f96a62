import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

/// Which connection the streaming client's stream rides (docs/performance.md, "Idle event streams"): never one
/// that FoundationNetworking had to connect for the stream itself.
@Suite("Unleash client: the stream's connection")
struct ClientStreamingConnectionTests {
    @Test("the stream request arrives on a connection that already carried the transport's warm-up request")
    func streamRidesAWarmConnection() async throws {
        try await offCooperativePool(timing: {
            let events = LoopbackEventStream()
            let server = try LoopbackHTTPServer.started(keepAlive: true) { request in
                switch (request.method, request.path) {
                case ("GET", "/api/client/streaming"): .eventStream(events)
                case ("OPTIONS", _): .status(204)
                default: .status(404)
                }
            }
            defer { server.stop() }
            let clock = ManualClock()
            let client = try UnleashServerClient(
                url: server.url("/api"), apiKey: "*:production.key", appName: "checkout", instanceID: "pod-1",
                refreshInterval: .seconds(60), disableMetrics: true, experimentalMode: .streaming,
                options: UnleashClientOptions(timeout: .seconds(5), now: { clock.date }, clock: clock))
            let started = Task { await client.start() }
            #expect(await events.waitForConnections(1))
            let stream = server.requests.filter { $0.path == "/api/client/streaming" }
            #expect(stream.map(\.method) == ["OPTIONS", "GET"])
            #expect(stream.count == 2 && stream[0].connection == stream[1].connection, "the warm-up's connection")
            client.stop()
            await started.value
        })
    }
}
