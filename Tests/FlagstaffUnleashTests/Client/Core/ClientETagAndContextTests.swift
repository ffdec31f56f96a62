import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite("Unleash client: ETag, 304 and context changes")
struct ClientETagAndContextTests {
    @Test("the ETag is sent back as If-None-Match and a 304 keeps the toggles")
    func notModified() async throws {
        let server = try LoopbackHTTPServer.started { request in
            if request.headers["If-None-Match"] == "\"v1\"" { return .status(304) }
            return FrontendBody.response(
                [FrontendBody.toggle("a"), FrontendBody.toggle("b", enabled: false)], eTag: "\"v1\"")
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"))
        let recorder = EventRecorder(client)
        await client.start()
        await client.fetchToggles()
        await client.fetchToggles()
        client.stop()

        let requests = server.requests
        try #require(requests.count == 3)
        #expect(requests[0].headers["If-None-Match"] == nil)
        #expect(requests[1].headers["If-None-Match"] == "\"v1\"")
        #expect(requests[2].headers["If-None-Match"] == "\"v1\"")
        #expect(client.isEnabled("a"))
        #expect(!client.isEnabled("b"))
        #expect(client.toggles.map(\.name) == ["a", "b"])
        #expect(recorder.readyCount == 1)
        #expect(recorder.updates == [["a", "b"]])
        #expect(recorder.errors.isEmpty)
        #expect(client.status.state == .ok)
    }

    @Test("updateContext fetches at once with the new query, without the old ETag")
    func contextChange() async throws {
        let server = try LoopbackHTTPServer.started { request in
            let user = request.query["userId"] ?? "anonymous"
            return FrontendBody.response([FrontendBody.toggle("for-\(user)")], eTag: "\"\(user)\"")
        }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"), context: UnleashContext(userId: "1"))
        let recorder = EventRecorder(client)
        await client.start()
        #expect(client.isEnabled("for-1"))

        await client.updateContext(UnleashContext(userId: "2", sessionId: "s"), properties: ["plan": "pro"])
        #expect(server.requestCount == 2)
        let second = try #require(server.requests.last)
        #expect(
            second.rawQuery == "userId=2&sessionId=s&appName=moments&environment=production&properties%5Bplan%5D=pro")
        #expect(second.headers["If-None-Match"] == nil)
        #expect(client.isEnabled("for-2"))
        #expect(!client.isEnabled("for-1"))
        #expect(client.context.properties == ["plan": "pro"])
        #expect(recorder.updates == [["for-1"], ["for-1", "for-2"]])
        client.stop()
    }

    @Test("before start, updateContext only stores the context")
    func contextBeforeStart() async throws {
        let server = try LoopbackHTTPServer.started { _ in FrontendBody.response([]) }
        defer { server.stop() }
        let client = UnleashClient.testing(url: server.url("/proxy"))
        await client.updateContext(UnleashContext(userId: "7"))
        #expect(server.requestCount == 0)
        await client.start()
        client.stop()
        #expect(server.requests.first?.query["userId"] == "7")
    }

    @Test("polling repeats at the refresh interval, on the client's clock; stop() ends it", .timeLimit(.minutes(1)))
    func polls() async throws {
        let server = try LoopbackHTTPServer.started { _ in FrontendBody.response([FrontendBody.toggle("a")]) }
        defer { server.stop() }
        let clock = ManualClock()
        let client = UnleashClient.testing(url: server.url("/proxy"), refreshInterval: .seconds(20), clock: clock)
        await client.start()
        for round in 1...3 {
            #expect(await clock.waitForDeadline(at: .seconds(20 * round)))
            #expect(server.requestCount == round)
            clock.advance(by: .seconds(20))
            #expect(await server.waitForRequests(count: round + 1))
        }
        #expect(await clock.waitForDeadline(at: .seconds(80)))
        client.stop()
        // Stopping cancelled the sleeping loop: nothing waits on the clock, so no poll can follow.
        #expect(clock.sleeperCount == 0)
        #expect(server.requestCount == 4)
    }
}
