import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffRemote

/// The app's activity (ADR-0008 `inactivityDelaySec`, ADR-0010 foreground refresh): an inactivity longer than the
/// delay closes the event streams and the return evaluates unconditionally and reopens them; a shorter one changes
/// nothing; without a stream the return revalidates. Every delay runs on a manual clock.
@Suite("OFREP provider: app activity")
struct OFREPProviderActivityTests {
    private func options(
        _ server: FakeOFREPServer, clock: ManualClock, inactivityDelay: Duration? = nil
    ) -> OFREPOptions {
        OFREPOptions(
            baseURL: server.baseURL, context: ["targetingKey": OverrideValue(string: "qa-phone")],
            inactivityDelay: inactivityDelay, clock: clock, random: { 0.5 })
    }

    /// A provider started against a fake server that offers a stream with `inactivityDelaySec` 30, once its first
    /// evaluation, its stream and the stream opening's revalidation are done. The caller stops the provider.
    private func streaming(
        inactivityDelay: Duration? = nil
    ) async throws -> (server: FakeOFREPServer, clock: ManualClock, provider: OFREPProvider) {
        let server = try FakeOFREPServer(flags: ["n": "1"], inactivityDelaySec: 30)
        let clock = ManualClock()
        let provider = OFREPProvider(options: options(server, clock: clock, inactivityDelay: inactivityDelay))
        provider.start()
        #expect(await server.events.waitForConnections(1))
        #expect(await eventually { server.bulkRequests.count == 2 && provider.connectedStreamCount == 1 })
        return (server, clock, provider)
    }

    @Test("inactive for the server's inactivityDelaySec closes the stream; active again evaluates unconditionally")
    func longInactivityClosesTheStream() async throws {
        try await offCooperativePool(timing: {
            let (server, clock, provider) = try await streaming()
            defer { provider.stop() }

            provider.applicationBecameInactive()
            try await clock.waitForSleepers(timeout: .seconds(90))
            #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(30)), "the server's delay")
            clock.advance(by: .seconds(30))
            #expect(await eventually { server.events.openConnectionCount == 0 && provider.connectedStreamCount == 0 })

            server.set("n", "2")  // while the app is away: no stream tells it
            provider.applicationBecameActive()
            #expect(await eventually { provider.value(forKey: "n", as: Int.self) == 2 })
            #expect(await server.events.waitForConnections(1))
            let resumed = try #require(server.bulkRequests.dropFirst(2).first)
            #expect(resumed.headers["If-None-Match"] == nil, "unconditional after an unknown time away")
            #expect(resumed.query.isEmpty)
            #expect(server.events.openedConnectionCount == 2)
        })
    }

    @Test("a shorter inactivity changes nothing; the client's delay wins over the server's")
    func shortInactivityChangesNothing() async throws {
        try await offCooperativePool(timing: {
            let (server, clock, provider) = try await streaming(inactivityDelay: .seconds(5))
            defer { provider.stop() }

            provider.applicationBecameInactive()
            try await clock.waitForSleepers(timeout: .seconds(90))
            #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(5)), "the client's delay")
            clock.advance(by: .seconds(4))
            provider.applicationBecameActive()
            // The timer is cancelled: nothing is left to fire.
            #expect(await eventually { clock.sleeperCount == 0 })
            clock.advance(by: .seconds(60))

            // The same stream still brings changes; no fetch was made on the return.
            server.publish("n", "2", id: "e1")
            #expect(await eventually { provider.value(forKey: "n", as: Int.self) == 2 })
            #expect(server.events.openedConnectionCount == 1)
            #expect(server.bulkRequests.count == 3)
        })
    }

    @Test("without a stream, the return revalidates with If-None-Match; the delay is then 120 s and closes nothing")
    func noStreamRevalidatesOnReturn() async throws {
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["n": "1"], streaming: false)
            let clock = ManualClock()
            let provider = OFREPProvider(options: options(server, clock: clock))
            provider.start()
            defer { provider.stop() }
            #expect(await eventually { provider.flags.count == 1 })

            provider.applicationBecameInactive()
            try await clock.waitForSleepers(timeout: .seconds(90))
            #expect(clock.nextDeadline == clock.now.advanced(by: .seconds(120)), "the default delay")
            clock.advance(by: .seconds(120))
            #expect(await eventually { clock.sleeperCount == 0 })

            server.set("n", "2")
            provider.applicationBecameActive()
            #expect(await eventually { provider.value(forKey: "n", as: Int.self) == 2 })
            #expect(server.bulkRequests.count == 2)
            #expect(server.bulkRequests.last?.headers["If-None-Match"] == "\"v1\"")
        })
    }

    @Test(
        "a failed fetch on the return (the network not back yet) is retried after the backoff, then the stream reopens")
    func failedReturnIsRetried() async throws {
        try await offCooperativePool(timing: {
            let (server, clock, provider) = try await streaming()
            defer { provider.stop() }
            provider.applicationBecameInactive()
            try await clock.waitForSleepers(timeout: .seconds(90))
            clock.advance(by: .seconds(30))
            #expect(await eventually { server.events.openConnectionCount == 0 })

            server.answer(status: 503)
            provider.applicationBecameActive()
            #expect(await eventually { provider.lastError?.contains("status 503") == true })
            try await clock.waitForSleepers(timeout: .seconds(90))
            server.answer(status: nil)
            server.set("n", "2")
            clock.advance(by: .seconds(1))
            #expect(await eventually { provider.value(forKey: "n", as: Int.self) == 2 })
            #expect(await server.events.waitForConnections(1))
        })
    }

    @Test("inactive before start: the timer starts with the provider; stop() cancels it")
    func inactiveBeforeStart() async throws {
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["n": "1"])
            let clock = ManualClock()
            let provider = OFREPProvider(options: options(server, clock: clock, inactivityDelay: .seconds(5)))
            provider.applicationBecameInactive()
            #expect(clock.sleeperCount == 0, "not running: nothing to close")
            provider.start()
            try await clock.waitForSleepers(timeout: .seconds(90))
            provider.stop()
            #expect(await eventually { clock.sleeperCount == 0 })
        })
    }
}
