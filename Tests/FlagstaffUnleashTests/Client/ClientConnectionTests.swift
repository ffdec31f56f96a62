import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

/// Each client keeps one HTTP session: its requests reuse the connection, `stop()` and releasing the client close
/// it, and an oversized body is cut off while it streams.
@Suite("Unleash client: connections")
struct ClientConnectionTests {
    static func server() throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer.started(keepAlive: true) { request in
            request.method == "POST" ? .status(202) : FrontendBody.response([FrontendBody.toggle("a")])
        }
    }

    @Test("polls and metrics posts share one connection; stop(flushingMetrics:) closes it after the last post")
    func frontendReuseAndStop() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), disableMetrics: false)
        await client.start()
        await client.fetchToggles()
        _ = client.isEnabled("a")
        await client.flushMetrics()
        _ = client.isEnabled("a")
        await client.stop(flushingMetrics: true)
        #expect(server.requests.map(\.method) == ["GET", "GET", "POST", "POST"])
        #expect(server.acceptedConnectionCount == 1)
        #expect(await server.wait(timeout: .seconds(30)) { $0.openConnectionCount == 0 }, "stop closes the connection")
    }

    @Test("stop() closes the connection once the last metrics post is done")
    func backgroundStop() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), disableMetrics: false)
        let recorder = EventRecorder(client)
        await client.start()
        _ = client.isEnabled("a")
        client.stop()
        #expect(await eventually { recorder.sent.count == 1 })
        #expect(await server.wait(timeout: .seconds(30)) { $0.openConnectionCount == 0 })
        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("the server-side client registers, polls and posts on one connection and closes it at stop")
    func serverClientReuseAndStop() async throws {
        let server = try ClientServerModeTests.server(keepAlive: true)
        defer { server.stop() }
        let client = try ClientServerModeTests.client(server.url("/api"))
        await client.start()
        await client.fetchFeatures()
        _ = client.isEnabled("vip")
        await client.stop(flushingMetrics: true)
        #expect(
            server.requests.map(\.path) == [
                "/api/client/register", "/api/client/features", "/api/client/features",
                "/api/client/metrics",
            ])
        #expect(server.acceptedConnectionCount == 1)
        #expect(await server.wait(timeout: .seconds(30)) { $0.openConnectionCount == 0 })
    }

    @Test("releasing a started client without stop() closes its connection")
    func releaseClosesConnection() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var client: UnleashClient? = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .seconds(3600))
        await client?.start()
        #expect(server.openConnectionCount == 1)
        client = nil
        #expect(await server.wait(timeout: .seconds(30)) { $0.openConnectionCount == 0 })
    }

    @Test("a body streaming far past the limit is cut off long before the server could finish it")
    func oversizedStream() async throws {
        // 32 MiB, chunked, 64 KiB every 20 ms: about 10 s at the server's pace.
        let server = try LoopbackHTTPServer.started { _ in
            .slowStream(bytes: 32 << 20, pace: LoopbackPace(bytes: 64 << 10, interval: .milliseconds(20)))
        }
        defer { server.stop() }
        let client = UnleashClient.testing(
            url: server.url("/proxy"), timeout: .seconds(30), maximumResponseBytes: 100_000)
        let recorder = EventRecorder(client)
        // Timed on a private executor: the cooperative pool may be busy with other tests.
        let elapsed = await offCooperativePool(timing: {
            let clock = ContinuousClock()
            let start = clock.now
            await client.start()
            return clock.now - start
        })
        // Bounds with room for a loaded machine: the server's whole stream takes ~10 s and is 32 MiB.
        #expect(elapsed < .seconds(6), "\(elapsed)")
        let failure = try #require(recorder.errors.first)
        #expect(
            failure.error
                == .invalidResponse(
                    "the body from \(server.url("/proxy").absoluteString)?sessionId=\(client.context.sessionId ?? "")&appName=moments&environment=production exceeds the limit of 100000 bytes"
                ))
        #expect(await server.wait(timeout: .seconds(30)) { $0.deliveries.count == 1 })
        #expect(server.deliveries.first?.completed == false)
        #expect((server.deliveries.first?.sentBodyBytes ?? .max) < 16 << 20)
    }
}
