import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffUnleash

/// One misbehaviour of the server and what the client must make of it.
struct FaultCase: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable {
        case halts, backsOff, reported
    }

    let name: String
    let response: LoopbackResponse
    let expected: Expected
    /// A piece of the error's description.
    let message: String

    var testDescription: String { name }

    static let all: [FaultCase] = [
        FaultCase(name: "401", response: .status(401), expected: .halts, message: "HTTP 401"),
        FaultCase(name: "403", response: .status(403), expected: .halts, message: "HTTP 403"),
        // 404 backs off (Unleash's Node SDK), it does not stop polling.
        FaultCase(name: "404", response: .status(404), expected: .backsOff, message: "HTTP 404"),
        FaultCase(
            name: "429", response: .status(429, headers: ["Retry-After": "1"]), expected: .backsOff, message: "HTTP 429"
        ),
        FaultCase(name: "500", response: .text("boom", status: 500), expected: .backsOff, message: "HTTP 500"),
        FaultCase(name: "503", response: .status(503), expected: .backsOff, message: "HTTP 503"),
        FaultCase(name: "400", response: .status(400), expected: .reported, message: "HTTP 400"),
        FaultCase(
            name: "timeout", response: LoopbackResponse(status: 200, body: Data("{}".utf8), delay: .seconds(120)),
            expected: .reported, message: "timed out"),
        FaultCase(
            name: "malformed JSON", response: .json(#"{"toggles": [ {"name": "a", "#), expected: .reported,
            message: "invalid response"),
        FaultCase(
            name: "wrong shape", response: .json(#"{"toggles": "all of them"}"#), expected: .reported,
            message: "$.toggles"),
        FaultCase(
            name: "HTML body", response: .text("<html>login</html>"), expected: .reported, message: "invalid response"),
        FaultCase(name: "empty body", response: .json(""), expected: .reported, message: "invalid response"),
        FaultCase(
            name: "truncated body",
            response: LoopbackResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(FrontendBody.json([FrontendBody.toggle("new")]).utf8),
                fault: .truncatedBody(sentBytes: 10)),
            expected: .reported, message: "truncated"),
        FaultCase(name: "oversized body", response: .oversized(bytes: 200_000), expected: .reported, message: "limit"),
        FaultCase(
            name: "closed without response", response: LoopbackResponse(fault: .closeWithoutResponse),
            expected: .reported, message: "connection failed"),
        FaultCase(
            name: "connection reset", response: LoopbackResponse(fault: .resetConnection),
            expected: .reported, message: "connection failed"),
    ]
}

@Suite("Unleash client: fault matrix")
struct ClientFaultMatrixTests {
    @Test(
        "each fault keeps the last-known-good toggles, reports an error and polls as specified",
        arguments: FaultCase.all)
    func fault(_ fault: FaultCase) async throws {
        let failing = Locked(false)
        let good = FrontendBody.response(
            [FrontendBody.toggle("kept"), FrontendBody.toggle("off", enabled: false)], eTag: "\"1\"")
        let server = try LoopbackHTTPServer.started { _ in failing.current ? fault.response : good }
        defer { server.stop() }
        // Deadlines are on a manual clock: a fetch times out only when the "timeout" case advances it, however
        // loaded the machine (the transport's real-time backstop, 60 s, is never reached).
        let clock = ManualClock()
        let client = UnleashClient.testing(
            url: server.url("/proxy"), refreshInterval: .seconds(3600),
            timeout: .seconds(60), maximumResponseBytes: 100_000, clock: clock)
        let recorder = EventRecorder(client)
        await client.start()
        #expect(client.isEnabled("kept"))
        failing.withLock { $0 = true }
        if fault.name == "timeout" {
            async let fetching: Void = client.fetchToggles()
            // The request is in flight: its deadline (60 s) comes before the next poll (3,600 s).
            #expect(await clock.waitForDeadline(at: .seconds(60)))
            #expect(await server.waitForRequests(count: 2), "the server holds the request when its deadline passes")
            clock.advance(by: .seconds(60))
            await fetching
        } else {
            await client.fetchToggles()
        }

        #expect(client.isEnabled("kept"))
        #expect(!client.isEnabled("off"))
        #expect(!client.isEnabled("new"))
        #expect(client.toggles.map(\.name) == ["kept", "off"])
        #expect(recorder.readyCount == 1)
        #expect(recorder.updates.count == 1)
        let failure = try #require(recorder.errors.last)
        #expect(recorder.errors.count == 1)
        #expect(failure.operation == .fetch)
        #expect(failure.description.contains(fault.message), "\(failure)")
        switch fault.expected {
        case .halts:
            #expect(client.currentPollInterval == nil)
            guard case .failed(let message) = client.status.state else {
                Issue.record("status \(client.status.state) is not failed")
                return
            }
            #expect(message.contains("stopped"))
        case .backsOff:
            #expect(client.currentPollInterval == .seconds(7200))
            guard case .throttled = client.status.state else {
                Issue.record("status \(client.status.state) is not throttled")
                return
            }
        case .reported:
            #expect(client.currentPollInterval == .seconds(3600))
            guard case .failed = client.status.state else {
                Issue.record("status \(client.status.state) is not failed")
                return
            }
        }
        client.stop()
    }

    @Test("a refused connection keeps the bootstrap and reports an error")
    func refused() async throws {
        let refused = try LoopbackRefusedPort()
        let client = UnleashClient.testing(
            url: refused.baseURL.appendingPathComponent("proxy"),
            bootstrap: .toggles([UnleashToggle(name: "boot", enabled: true)]))
        let recorder = EventRecorder(client)
        await client.start()
        client.stop()
        #expect(client.isEnabled("boot"))
        #expect(recorder.errors.count == 1)
        #expect(recorder.errors.first?.error.description.contains("refused") == true)
        #expect(client.currentPollInterval == .seconds(60))
    }

    @Test("in real time, a timeout fires at the client's deadline, not Foundation's whole seconds")
    func timeoutIsPrompt() async throws {
        let clock = ContinuousClock()
        let arrived = Locked<ContinuousClock.Instant?>(nil)
        let server = try LoopbackHTTPServer.started { _ in
            arrived.withLock { $0 = clock.now }
            return LoopbackResponse(status: 200, delay: .seconds(10))
        }
        defer { server.stop() }
        let client = UnleashClient.testing(
            url: server.url("/proxy"), timeout: .milliseconds(200), clock: ContinuousClock())
        let failed = Locked<ContinuousClock.Instant?>(nil)
        let subscription = client.onEvent { event in
            if case .error = event { failed.withLock { $0 = clock.now } }
        }
        defer { subscription.cancel() }
        let starting = clock.now
        await client.start()
        client.stop()
        #expect(client.status.state == .failed(UnleashClientError.timedOut(after: .milliseconds(200)).description))
        // From asking for the first fetch to the error event (stamped on the client's own executor, off the
        // cooperative pool): about 0.2 s, never Foundation's whole-second backstop (2 s here). The test's own
        // resumption after `start()` is not timed: a full parallel run keeps the pool busy for seconds. Whether
        // the request reached the server first depends on how loaded the machine is, so it is not required.
        let gaveUp = try #require(failed.current)
        #expect(gaveUp - starting < .milliseconds(1_500), "\(gaveUp - starting)")
        if let sent = arrived.current { #expect(gaveUp - sent < .seconds(1), "\(gaveUp - sent)") }
    }
}
