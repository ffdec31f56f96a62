import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

/// The frontend client behaves as Unleash's frontend SDKs (unleash-proxy-client-swift and -js) and the Node SDK's
/// status rules, against loopback stand-ins that answer as an Unleash frontend API does.
@Suite("Unleash client: SDK fidelity (frontend)")
struct ClientFidelityTests {
    /// A frontend API stand-in: toggles for GET, `metricsStatus` for metrics posts.
    static func server(status: Locked<Int> = Locked(200), metricsStatus: Locked<Int> = Locked(202)) throws
        -> LoopbackHTTPServer
    {
        try LoopbackHTTPServer.started { request in
            if request.method == "POST" { return .status(metricsStatus.current) }
            return status.current == 200 ? FrontendBody.response([FrontendBody.toggle("a")]) : .status(status.current)
        }
    }

    @Test("refreshInterval 0: one fetch at start, then no poll loop; fetches on request still work")
    func refreshIntervalZeroTurnsPollingOff() async throws {
        let status = Locked(200)
        let server = try Self.server(status: status)
        defer { server.stop() }
        let clock = ManualClock()
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .zero, clock: clock)
        await client.start()
        #expect(client.isEnabled("a"))
        #expect(client.currentPollInterval == nil)
        #expect(!client.poller.tasks.names.contains("poll"))
        #expect(clock.sleeperCount == 0, "nothing waits on the clock: no poll can come")
        await client.fetchToggles()
        #expect(server.requestCount == 2)
        // A 503 with polling off: there is no next poll to be throttled until.
        status.withLock { $0 = 503 }
        await client.fetchToggles()
        guard case .failed(let message) = client.status.state else {
            Issue.record("status \(client.status.state) is not failed")
            return
        }
        #expect(message.contains("HTTP 503"))
        #expect(client.currentPollInterval == nil && clock.sleeperCount == 0)
        client.stop()
    }

    @Test("metricsInterval 0: no periodic posts, but flushMetrics() and stop() still send")
    func metricsIntervalZeroTurnsPeriodicPostsOff() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let clock = ManualClock()
        let client = UnleashClient.testing(
            url: server.url("/proxy"), metricsInterval: .zero, disableMetrics: false, clock: clock)
        await client.start()
        #expect(client.currentMetricsInterval == nil)
        #expect(client.poller.tasks.names == ["poll"])
        _ = client.isEnabled("a")
        await client.flushMetrics()
        #expect(server.requests.filter { $0.method == "POST" }.count == 1)
        _ = client.isEnabled("a")
        await client.stop(flushingMetrics: true)
        #expect(server.requests.filter { $0.method == "POST" }.count == 2)
    }

    @Test("a session id is made once, sent with every fetch and kept by updateContext when the new context has none")
    func sessionIDMadeOnceAndKept() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), context: UnleashContext(userId: "u1"))
        let session = try #require(client.context.sessionId)
        #expect(Int(session).map { (0..<1_000_000_000).contains($0) } == true, "a number below 10⁹, as the SDKs")
        await client.start()
        await client.fetchToggles()
        await client.updateContext(UnleashContext(userId: "u2"))
        #expect(client.context.sessionId == session)
        #expect(client.context.userId == "u2")
        #expect(server.requests.map { $0.query["sessionId"] } == [session, session, session])
        // A context that brings its own session id replaces it.
        await client.updateContext(UnleashContext(userId: "u2", sessionId: "mine"))
        #expect(server.requests.last?.query["sessionId"] == "mine")
        await client.updateContext(UnleashContext(userId: "u3"))
        #expect(server.requests.last?.query["sessionId"] == "mine")
        client.stop()
        // Another client makes its own; a given one is used as is.
        #expect(UnleashClient.testing(url: server.url("/proxy")).context.sessionId != session)
        let given = UnleashClient.testing(url: server.url("/proxy"), context: UnleashContext(sessionId: "given"))
        #expect(given.context.sessionId == "given")
    }

    @Test("404 backs off like 429/5xx; a success brings the normal interval back", .timeLimit(.minutes(1)))
    func notFoundBacksOff() async throws {
        let status = Locked(404)
        let server = try Self.server(status: status)
        defer { server.stop() }
        let clock = ManualClock()
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .seconds(10), clock: clock)
        await client.start()
        #expect(client.currentPollInterval == .seconds(20))
        #expect(client.isRunning)
        // The loop polls again after the backed-off wait.
        #expect(await clock.waitForDeadline(at: .seconds(20)))
        status.withLock { $0 = 200 }
        clock.advance(by: .seconds(20))
        #expect(await server.waitForRequests(count: 2))
        #expect(await clock.waitForDeadline(at: .seconds(30)))
        #expect(client.currentPollInterval == .seconds(10))
        client.stop()
    }

    @Test(
        "after 401 stopped polling, any successful fetch (fetchToggles, updateContext) restarts the poll loop",
        .timeLimit(.minutes(1)))
    func anySuccessAfterHaltRestartsPolling() async throws {
        let status = Locked(401)
        let server = try Self.server(status: status)
        defer { server.stop() }
        let clock = ManualClock()
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .seconds(10), clock: clock)
        await client.start()
        await client.poller.tasks.waitUntilEnded("poll")
        #expect(client.currentPollInterval == nil && clock.sleeperCount == 0)

        status.withLock { $0 = 200 }
        await client.fetchToggles()
        #expect(client.currentPollInterval == .seconds(10))
        #expect(await clock.waitForDeadline(at: .seconds(10)))
        clock.advance(by: .seconds(10))
        #expect(await server.waitForRequests(count: 3))

        // Halted again (403), then an updateContext that succeeds restarts it too.
        status.withLock { $0 = 403 }
        #expect(await clock.waitForDeadline(at: .seconds(20)))
        clock.advance(by: .seconds(10))
        #expect(await server.waitForRequests(count: 4))
        await client.poller.tasks.waitUntilEnded("poll")
        #expect(client.currentPollInterval == nil)
        status.withLock { $0 = 200 }
        await client.updateContext(UnleashContext(userId: "u9"))
        #expect(await clock.waitForDeadline(at: .seconds(30)))
        clock.advance(by: .seconds(10))
        #expect(await server.waitForRequests(count: 6))
        client.stop()
    }

    @Test(
        "metrics posts: 503 and 404 back off, 401 stops the periodic posts, an accepted flush restarts them",
        .timeLimit(.minutes(1)))
    func metricsStatusRules() async throws {
        let metricsStatus = Locked(503)
        let server = try Self.server(metricsStatus: metricsStatus)
        defer { server.stop() }
        let clock = ManualClock()
        // Polling off, so the only loop on the clock is the metrics one.
        let client = UnleashClient.testing(
            url: server.url("/proxy"), refreshInterval: .zero, metricsInterval: .seconds(10), disableMetrics: false,
            clock: clock)
        let recorder = EventRecorder(client)
        await client.start()
        func posts() -> Int { server.requests.filter { $0.method == "POST" }.count }

        _ = client.isEnabled("a")
        #expect(await clock.waitForDeadline(at: .seconds(10)))
        clock.advance(by: .seconds(10))
        // 503: the next post waits two intervals.
        #expect(await clock.waitForDeadline(at: .seconds(30)))
        #expect(posts() == 1 && client.currentMetricsInterval == .seconds(20))
        metricsStatus.withLock { $0 = 404 }
        clock.advance(by: .seconds(20))
        #expect(await clock.waitForDeadline(at: .seconds(60)))
        #expect(posts() == 2 && client.currentMetricsInterval == .seconds(30))

        // 401: the loop ends, the counts are kept.
        metricsStatus.withLock { $0 = 401 }
        clock.advance(by: .seconds(30))
        #expect(await eventually { posts() == 3 })
        await client.poller.tasks.waitUntilEnded("metrics")
        #expect(client.currentMetricsInterval == nil && clock.sleeperCount == 0)
        #expect(recorder.errors.map(\.error.description).last?.contains("HTTP 401") == true)

        // An accepted flush sends the kept counts and restarts the periodic posts at the normal interval.
        metricsStatus.withLock { $0 = 202 }
        await client.flushMetrics()
        #expect(recorder.sent.last?.toggles["a"]?.yes == 1)
        #expect(client.currentMetricsInterval == .seconds(10))
        #expect(await clock.waitForDeadline(at: .seconds(70)))
        client.stop()
    }

    @Test("stop() sends nothing after 401 stopped the metrics posts; the counts stay for flushMetrics()")
    func stopAfterMetricsHalt() async throws {
        let metricsStatus = Locked(403)
        let server = try Self.server(metricsStatus: metricsStatus)
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), disableMetrics: false)
        await client.start()
        _ = client.isEnabled("a")
        await client.flushMetrics()
        _ = client.isEnabled("a")
        await client.stop(flushingMetrics: true)
        #expect(server.requests.filter { $0.method == "POST" }.count == 1)
        metricsStatus.withLock { $0 = 202 }
        let recorder = EventRecorder(client)
        await client.flushMetrics()
        #expect(recorder.sent.first?.toggles["a"]?.yes == 2)
    }

    @Test("each client mints its own connection id, also when clients share an options value; a pinned one is used")
    func connectionIDPerClient() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let options = UnleashClientOptions(clock: ManualClock())
        let first = UnleashClient(url: server.url("/proxy"), clientKey: "k", appName: "a", options: options)
        let second = UnleashClient(url: server.url("/proxy"), clientKey: "k", appName: "a", options: options)
        #expect(first.connectionID != second.connectionID)
        #expect(UUID(uuidString: first.connectionID) != nil)
        await first.fetchToggles()
        await second.fetchToggles()
        #expect(
            server.requests.map { $0.headers["unleash-connection-id"] } == [first.connectionID, second.connectionID])
        var pinned = options
        pinned.connectionID = "pinned-id"
        #expect(
            UnleashClient(url: server.url("/proxy"), clientKey: "k", appName: "a", options: pinned).connectionID
                == "pinned-id")
    }
}
