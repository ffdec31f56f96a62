import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: backoff and stopping")
struct ClientBackoffTests {
    @Test("429 and 5xx lengthen the interval step by step up to the cap; a success restores it")
    func backoffGrowsAndResets() async throws {
        let status = Locked(503)
        let server = try LoopbackHTTPServer.started { _ in
            status.current == 200 ? FrontendBody.response([FrontendBody.toggle("a")]) : .status(status.current)
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .seconds(10))
        await client.start()
        #expect(client.currentPollInterval == .seconds(20))
        status.withLock { $0 = 429 }
        await client.fetchToggles()
        #expect(client.currentPollInterval == .seconds(30))
        status.withLock { $0 = 500 }
        await client.fetchToggles()
        await client.fetchToggles()
        await client.fetchToggles()
        #expect(client.currentPollInterval == .seconds(40))
        status.withLock { $0 = 200 }
        await client.fetchToggles()
        #expect(client.currentPollInterval == .seconds(10))
        #expect(client.status.state == .ok)
        client.stop()
    }

    @Test("the poll loop waits longer while backing off")
    func loopBacksOff() async throws {
        let times = Locked<[ContinuousClock.Instant]>([])
        let server = try LoopbackHTTPServer.started { _ in
            times.withLock { $0.append(ContinuousClock.now) }
            return .status(503)
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .milliseconds(40))
        await client.start()
        #expect(await server.waitForRequests(count: 4))
        client.stop()
        let stamps = times.current
        try #require(stamps.count >= 4)
        // Waits are 80, 120, 160 ms: each at least its nominal length.
        #expect(stamps[1] - stamps[0] >= .milliseconds(80))
        #expect(stamps[2] - stamps[1] >= .milliseconds(120))
        #expect(stamps[3] - stamps[2] >= .milliseconds(160))
    }

    @Test("401 stops polling; a successful refresh starts it again")
    func haltAndResume() async throws {
        let status = Locked(401)
        let server = try LoopbackHTTPServer.started { _ in
            status.current == 200 ? FrontendBody.response([FrontendBody.toggle("a")]) : .status(status.current)
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .milliseconds(10))
        await client.start()
        try await Task.sleep(for: .milliseconds(100))
        #expect(server.requestCount == 1)
        #expect(client.currentPollInterval == nil)

        status.withLock { $0 = 200 }
        await client.refresh()
        #expect(client.isEnabled("a"))
        #expect(await server.waitForRequests(count: 4))
        client.stop()
    }

    @Test("status before any fetch is neverFetched")
    func neverFetched() {
        let client = UnleashClient.testing(url: URL(fileURLWithPath: "/"))
        #expect(client.status == RemoteSourceStatusProbe.never)
    }
}

import Flagstaff

enum RemoteSourceStatusProbe {
    static let never = RemoteSourceStatus(lastFetch: nil, state: .neverFetched)
}
