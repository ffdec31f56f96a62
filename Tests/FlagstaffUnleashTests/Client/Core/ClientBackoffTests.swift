import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
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

    @Test("the poll loop waits longer while backing off, on the client's clock", .timeLimit(.minutes(1)))
    func loopBacksOff() async throws {
        let server = try LoopbackHTTPServer.started { _ in .status(503) }
        defer { server.stop() }
        let clock = ManualClock()
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .seconds(10), clock: clock)
        await client.start()
        // After each 503 the wait grows by one refresh interval, up to the cap (4 × 10 s in `.testing`).
        var elapsed = Duration.zero
        for (requests, wait) in [(1, 20), (2, 30), (3, 40), (4, 40)] {
            let due = elapsed + .seconds(wait)
            #expect(await clock.waitForDeadline(at: due), "the loop sleeps until \(due)")
            #expect(server.requestCount == requests)
            clock.advance(by: .seconds(wait - 1))
            // One second early: the loop is still asleep, with the same deadline.
            #expect(clock.sleeperCount == 1 && clock.nextDeadline == ManualClock.Instant(offset: due))
            clock.advance(by: .seconds(1))
            elapsed = due
            #expect(await server.waitForRequests(count: requests + 1))
        }
        client.stop()
    }

    @Test("401 stops polling; a successful refresh starts it again", .timeLimit(.minutes(1)))
    func haltAndResume() async throws {
        let status = Locked(401)
        let server = try LoopbackHTTPServer.started { _ in
            status.current == 200 ? FrontendBody.response([FrontendBody.toggle("a")]) : .status(status.current)
        }
        defer { server.stop() }
        let clock = ManualClock()
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .seconds(10), clock: clock)
        await client.start()
        #expect(client.currentPollInterval == nil)
        // The poll loop ended without waiting on the clock: no later poll can come.
        await client.poller.tasks.waitUntilEnded("poll")
        #expect(clock.sleeperCount == 0)
        #expect(server.requestCount == 1)

        status.withLock { $0 = 200 }
        await client.refresh()
        #expect(client.isEnabled("a"))
        // Polling is back: the loop waits one refresh interval, then fetches.
        #expect(await clock.waitForDeadline(at: .seconds(10)))
        clock.advance(by: .seconds(10))
        #expect(await server.waitForRequests(count: 3))
        client.stop()
    }

    @Test("status before any fetch is neverFetched")
    func neverFetched() {
        let client = UnleashClient.testing(url: URL(fileURLWithPath: "/"))
        #expect(client.status == RemoteSourceStatusProbe.never)
    }
}

enum RemoteSourceStatusProbe {
    static let never = RemoteSourceStatus(lastFetch: nil, state: .neverFetched)
}
