import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

/// Code written for unleash-proxy-client-swift compiles and behaves the same against ``UnleashClient``.
@Suite("Unleash client: unleash-proxy-client-swift spellings")
struct ClientProxyClientSwiftTests {
    static func server(status: Locked<Int> = Locked(200)) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer.started { request in
            if request.method == "POST" { return .status(202) }
            guard status.current == 200 else { return .status(status.current) }
            return FrontendBody.response([
                FrontendBody.toggle("a", variant: ["name": "blue", "enabled": true, "feature_enabled": true])
            ])
        }
    }

    @Test("the original's initializer, start, isEnabled(name:), getVariant(name:), subscribe and updateContext")
    func originalSpellings() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let unleash = try UnleashClient(
            unleashUrl: server.url("/api/frontend").absoluteString, clientKey: "key", appName: "test",
            context: ["userId": "u1", "plan": "pro", "appName": "ignored"],
            options: UnleashClientOptions(clock: ManualClock()))
        #expect(unleash.refreshInterval == .seconds(15), "15 s, the original's default")
        #expect(unleash.metricsInterval == .seconds(30))
        let readies = Locked(0)
        let updates = Locked(0)
        unleash.subscribe(.ready) { readies.withLock { $0 += 1 } }
        unleash.subscribe(.update) { updates.withLock { $0 += 1 } }
        // `try await unleash.start()` compiles too (with a warning: this client's start() does not throw).
        try await unleash.start(bootstrap: .toggles([]))
        #expect(readies.current == 1 && updates.current == 1)
        #expect(unleash.isEnabled(name: "a"))
        #expect(unleash.getVariant(name: "a").name == "blue")
        let first = try #require(server.requests.first)
        #expect(first.query["userId"] == "u1" && first.query["properties[plan]"] == "pro")
        #expect(first.query["appName"] == "test")

        let session = unleash.context.sessionId
        try await unleash.updateContext(context: ["userId": "u2"], properties: ["tier": "gold"])
        #expect(unleash.context.userId == "u2" && unleash.context.properties == ["tier": "gold"])
        #expect(unleash.context.sessionId == session)
        #expect(unleash.context.toMap()["userId"] == "u2" && unleash.context.toMap()["tier"] == "gold")

        unleash.unsubscribe(.update)
        try await unleash.updateContext(context: ["userId": "u3"])
        #expect(updates.current == 1, "unsubscribed")
        unleash.stop()
    }

    @Test("a bad unleashUrl throws an error naming it; a failed first fetch makes start(bootstrap:) throw")
    func errors() async throws {
        let bad = #expect(throws: UnleashClientError.self) {
            try UnleashClient(unleashUrl: "not a url", clientKey: "key")
        }
        #expect(bad?.description.contains("unleashUrl \"not a url\"") == true)

        let status = Locked(503)
        let server = try Self.server(status: status)
        defer { server.stop() }
        let unleash = try UnleashClient(
            unleashUrl: server.url("/proxy").absoluteString, clientKey: "key",
            options: UnleashClientOptions(clock: ManualClock()))
        let failure = await #expect(throws: UnleashClientError.self) {
            try await unleash.start(bootstrap: .toggles([UnleashToggle(name: "boot", enabled: true)]))
        }
        #expect(failure == .httpStatus(503, url: server.url("/proxy").absoluteString))
        #expect(unleash.isEnabled(name: "boot"), "the bootstrap is served while fetches fail")
        unleash.stop()
    }

    @Test("intervals of 0 seconds turn polling and periodic metrics off, as in the original")
    func zeroIntervals() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let clock = ManualClock()
        let unleash = try UnleashClient(
            unleashUrl: server.url("/proxy").absoluteString, clientKey: "key", refreshInterval: 0, metricsInterval: 0,
            options: UnleashClientOptions(clock: clock))
        await unleash.start()
        #expect(unleash.currentPollInterval == nil && unleash.currentMetricsInterval == nil)
        #expect(clock.sleeperCount == 0)
        unleash.stop()
    }
}

extension ClientProxyClientSwiftTests {
    @Test("updateContext(context:) on a client that is not started takes the context without throwing")
    func updateContextWhenStopped() async throws {
        let status = Locked(503)
        let server = try Self.server(status: status)
        defer { server.stop() }
        let unleash = try UnleashClient(
            unleashUrl: server.url("/proxy").absoluteString, clientKey: "key",
            options: UnleashClientOptions(clock: ManualClock()))
        await unleash.fetchToggles()
        try await unleash.updateContext(context: ["userId": "u1", "remoteAddress": "10.0.0.1"])
        #expect(unleash.context.userId == "u1" && unleash.context.remoteAddress == "10.0.0.1")
        #expect(server.requestCount == 1)
    }
}
