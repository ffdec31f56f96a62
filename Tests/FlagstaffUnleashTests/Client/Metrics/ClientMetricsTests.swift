import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: metrics")
struct ClientMetricsTests {
    static func server(metricsStatus: Int = 202) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer.started { request in
            if request.method == "POST" { return .status(metricsStatus) }
            return FrontendBody.response([
                FrontendBody.toggle("a", variant: ["name": "blue", "enabled": true, "feature_enabled": true]),
                FrontendBody.toggle("b", enabled: false),
            ])
        }
    }

    @Test("POST {url}/client/metrics with appName, environment, instanceId and the bucket")
    func payload() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/api/frontend"), disableMetrics: false)
        let recorder = EventRecorder(client)
        await client.start()
        client.stop()
        _ = client.isEnabled("a")
        _ = client.isEnabled("a")
        _ = client.isEnabled("b")
        _ = client.variant("a")
        _ = client.variant("unknown")
        await client.flushMetrics()

        let post = try #require(server.requests.first { $0.method == "POST" })
        #expect(post.path == "/api/frontend/client/metrics")
        #expect(post.headers["Content-Type"] == "application/json")
        #expect(post.headers["Authorization"] == "client-key-123")
        let body = try #require(post.jsonBody)
        #expect(body["appName"] as? String == "moments")
        #expect(body["environment"] as? String == "production")
        #expect(body["instanceId"] as? String == client.connectionID)
        let bucket = try #require(body["bucket"] as? [String: Any])
        #expect(UnleashTimestamp.parse(bucket["start"] as? String ?? "") != nil)
        #expect(UnleashTimestamp.parse(bucket["stop"] as? String ?? "") != nil)
        let toggles = try #require(bucket["toggles"] as? [String: [String: Any]])
        #expect(toggles["a"]?["yes"] as? Int == 3)
        #expect(toggles["a"]?["no"] as? Int == 0)
        #expect(toggles["a"]?["variants"] as? [String: Int] == ["blue": 1])
        #expect(toggles["b"]?["no"] as? Int == 1)
        #expect(toggles["unknown"]?["no"] as? Int == 1)
        #expect(toggles["unknown"]?["variants"] as? [String: Int] == ["disabled": 1])
        #expect(recorder.sent.count == 1)
        #expect(recorder.sent.first?.toggles["a"]?.yes == 3)

        await client.flushMetrics()
        #expect(server.requests.filter { $0.method == "POST" }.count == 1)
    }

    @Test("a rejected post keeps the counts for the next one and reports an error")
    func failedPostKeepsCounts() async throws {
        let status = Locked(500)
        let server = try LoopbackHTTPServer.started { request in
            request.method == "POST" ? .status(status.current) : FrontendBody.response([FrontendBody.toggle("a")])
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), disableMetrics: false)
        let recorder = EventRecorder(client)
        await client.start()
        client.stop()
        _ = client.isEnabled("a")
        await client.flushMetrics()
        #expect(recorder.errors.map(\.operation) == [.metrics])
        _ = client.isEnabled("a")
        status.withLock { $0 = 200 }
        await client.flushMetrics()
        let posts = server.requests.filter { $0.method == "POST" }
        try #require(posts.count == 2)
        let toggles =
            posts[1].jsonBody?["bucket"].flatMap { ($0 as? [String: Any])?["toggles"] } as? [String: [String: Any]]
        #expect(toggles?["a"]?["yes"] as? Int == 2)
        #expect(recorder.sent.count == 1)
    }

    @Test(
        "metrics are posted every metricsInterval (on the client's clock) while started, and not at all when disabled",
        .timeLimit(.minutes(1)))
    func periodic() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let clock = ManualClock()
        let client = UnleashClient.testing(
            url: server.url("/proxy"), refreshInterval: .seconds(3600),
            metricsInterval: .seconds(20), disableMetrics: false, clock: clock)
        await client.start()
        _ = client.isEnabled("a")
        // The metrics loop (due at 20 s) and the poll loop (3,600 s) are asleep; 19 s later nothing is due yet.
        try await clock.waitForSleepers(2)
        #expect(clock.nextDeadline == ManualClock.Instant(offset: .seconds(20)))
        clock.advance(by: .seconds(19))
        #expect(clock.sleeperCount == 2)
        #expect(!server.requests.contains { $0.method == "POST" })
        clock.advance(by: .seconds(1))
        #expect(await eventually { server.requests.contains { $0.method == "POST" } })
        // The next post is due one interval later.
        #expect(await clock.waitForDeadline(at: .seconds(40)))
        client.stop()

        let quiet = try Self.server()
        defer { quiet.stop() }
        let disabled = UnleashClient.testing(
            url: quiet.url("/proxy"), metricsInterval: .seconds(10), disableMetrics: true,
            clock: ManualClock())
        await disabled.start()
        _ = disabled.isEnabled("a")
        await disabled.flushMetrics()
        // No metrics loop was started: only polling runs.
        #expect(disabled.poller.tasks.names == ["poll"])
        disabled.stop()
        #expect(!quiet.requests.contains { $0.method == "POST" })
    }

    @Test("counting is race-free: many tasks evaluate while buckets are flushed")
    func concurrentCounting() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), disableMetrics: false)
        let recorder = EventRecorder(client)
        await client.start()
        client.stop()
        let tasks = 8
        let perTask = 2_000
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<tasks {
                group.addTask {
                    for round in 0..<perTask {
                        if round % 4 == 0 {
                            _ = client.variant(index.isMultiple(of: 2) ? "a" : "b")
                        } else {
                            _ = client.isEnabled(index.isMultiple(of: 2) ? "a" : "b")
                        }
                    }
                }
            }
            group.addTask {
                for _ in 0..<10 { await client.flushMetrics() }
            }
        }
        await client.flushMetrics()
        let buckets = recorder.sent
        let yes = buckets.reduce(0) { $0 + ($1.toggles["a"]?.yes ?? 0) }
        let no = buckets.reduce(0) { $0 + ($1.toggles["b"]?.no ?? 0) }
        let blue = buckets.reduce(0) { $0 + ($1.toggles["a"]?.variants["blue"] ?? 0) }
        #expect(yes == tasks / 2 * perTask)
        #expect(no == tasks / 2 * perTask)
        #expect(blue == tasks / 2 * perTask / 4)
        #expect(recorder.errors.isEmpty)
    }
}
