import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

/// `stop()` sends the counts gathered since the last metrics post, once, and never hangs when the server is gone.
@Suite("Unleash client: metrics sent at stop")
struct ClientStopMetricsTests {
    static func toggles(_ request: LoopbackRequest) -> LoopbackResponse {
        FrontendBody.response([FrontendBody.toggle("a"), FrontendBody.toggle("b", enabled: false)])
    }

    static func counts(_ request: LoopbackRequest?) -> [String: [String: Any]]? {
        (request?.jsonBody?["bucket"] as? [String: Any])?["toggles"] as? [String: [String: Any]]
    }

    @Test("stop() posts the pending counts once, in the background")
    func stopPostsPendingCounts() async throws {
        let server = try LoopbackHTTPServer.started { request in
            request.method == "POST" ? .status(202) : Self.toggles(request)
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), disableMetrics: false)
        let recorder = EventRecorder(client)
        await client.start()
        _ = client.isEnabled("a")
        _ = client.isEnabled("a")
        _ = client.isEnabled("b")
        _ = client.variant("a")
        client.stop()
        #expect(!client.isRunning)
        #expect(await eventually { recorder.sent.count == 1 })
        let posts = server.requests.filter { $0.method == "POST" }
        try #require(posts.count == 1)
        #expect(posts[0].path == "/proxy/client/metrics")
        let toggles = try #require(Self.counts(posts[0]))
        #expect(toggles["a"]?["yes"] as? Int == 3)
        #expect(toggles["a"]?["variants"] as? [String: Int] == ["disabled": 1])
        #expect(toggles["b"]?["no"] as? Int == 1)

        // Once: stopping again, or flushing, sends nothing more.
        client.stop()
        await client.flushMetrics()
        await client.stop(flushingMetrics: true)
        #expect(server.requests.filter { $0.method == "POST" }.count == 1)
    }

    @Test("stop(flushingMetrics: true) returns after the post; false keeps the counts")
    func awaitedStop() async throws {
        let server = try LoopbackHTTPServer.started { request in
            request.method == "POST" ? .status(200) : Self.toggles(request)
        }
        defer { server.stop() }
        let kept = UnleashClient.testing(url: server.url("/kept"), disableMetrics: false)
        await kept.start()
        _ = kept.isEnabled("a")
        await kept.stop(flushingMetrics: false)
        #expect(!server.requests.contains { $0.method == "POST" })

        let client = UnleashClient.testing(url: server.url("/proxy"), disableMetrics: false)
        await client.start()
        _ = client.isEnabled("a")
        _ = client.isEnabled("b")
        await client.stop(flushingMetrics: true)
        let post = try #require(server.requests.first { $0.method == "POST" })
        #expect(Self.counts(post)?["a"]?["yes"] as? Int == 1)
        #expect(Self.counts(post)?["b"]?["no"] as? Int == 1)

        // The kept counts go with the next flush.
        await kept.flushMetrics()
        let keptPost = try #require(server.requests.first { $0.method == "POST" && $0.path == "/kept/client/metrics" })
        #expect(Self.counts(keptPost)?["a"]?["yes"] as? Int == 1)
    }

    @Test("the server-side client posts its pending counts to /api/client/metrics at stop")
    func serverClientStop() async throws {
        let server = try ClientServerModeTests.server()
        defer { server.stop() }
        let client = try ClientServerModeTests.client(server.url("/api"))
        await client.start()
        _ = client.isEnabled("vip")
        _ = client.isEnabled("vip", context: UnleashContext(userId: "1"))
        await client.stop(flushingMetrics: true)
        let post = try #require(server.requests.first { $0.path == "/api/client/metrics" })
        #expect(post.jsonBody?["instanceId"] as? String == "pod-1")
        #expect(Self.counts(post)?["vip"]?["yes"] as? Int == 1)
        #expect(Self.counts(post)?["vip"]?["no"] as? Int == 1)
    }

    @Test(
        "with the server gone, stop() returns at once and the awaited stop within the timeout; counts are kept",
        .timeLimit(.minutes(1)))
    func serverGone() async throws {
        let server = try LoopbackHTTPServer.started(handler: Self.toggles)
        let client = UnleashClient.testing(
            url: server.url("/proxy"), disableMetrics: false, timeout: .milliseconds(300),
            clock: ContinuousClock())
        let recorder = EventRecorder(client)
        await client.start()
        server.stop()  // the port now refuses connections
        _ = client.isEnabled("a")

        let clock = ContinuousClock()
        let started = clock.now
        client.stop()
        // stop() is synchronous and does no I/O itself: nothing on the cooperative pool is awaited here.
        #expect(clock.now - started < .milliseconds(500))
        #expect(await eventually { recorder.errors.contains { $0.operation == .metrics } })

        // A server that accepts but never answers: the awaited stop gives up after the client's timeout, measured
        // on its clock.
        let silent = try LoopbackHTTPServer.started { request in
            request.method == "POST" ? LoopbackResponse(status: 202, delay: .seconds(120)) : Self.toggles(request)
        }
        defer { silent.stop() }
        let manual = ManualClock()
        let slow = UnleashClient.testing(
            url: silent.url("/proxy"), disableMetrics: false, timeout: .seconds(30), clock: manual)
        let slowRecorder = EventRecorder(slow)
        await slow.start()
        _ = slow.isEnabled("a")
        async let stopping: Void = slow.stop(flushingMetrics: true)
        // The loops (due at 60 s) are cancelled; the post's deadline (30 s) is what the clock waits for, while the
        // server holds the post.
        #expect(await manual.waitForDeadline(at: .seconds(30)))
        #expect(await eventually { silent.requests.filter { $0.method == "POST" }.count == 1 })
        manual.advance(by: .seconds(30))
        await stopping
        #expect(slowRecorder.errors.map(\.operation) == [.metrics])
        #expect(slowRecorder.errors.first?.error == .timedOut(after: .seconds(30)))
        // Still failing: the counts were put back, not lost, and go with the next post.
        async let flushing: Void = slow.flushMetrics()
        #expect(await manual.waitForDeadline(at: .seconds(60)))
        #expect(await eventually { silent.requests.filter { $0.method == "POST" }.count == 2 })
        manual.advance(by: .seconds(30))
        await flushing
        let posts = silent.requests.filter { $0.method == "POST" }
        #expect(posts.count == 2)
        #expect(Self.counts(posts.last)?["a"]?["yes"] as? Int == 1)
    }
}
