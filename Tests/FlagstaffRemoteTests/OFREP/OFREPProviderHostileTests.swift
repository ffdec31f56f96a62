import Flagstaff
import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import FlagstaffRemote

/// The OFREP provider against servers that misbehave on purpose, on 127.0.0.1: streams on other origins, many
/// streams, `429` with no pause, floods of events.
@Suite(
    "OFREP provider: hostile servers",
    .enabled(if: HostileServerTests.inOwnProcess, Comment(rawValue: HostileServerTests.reason)))
struct OFREPProviderHostileTests {
    private static func options(_ baseURL: URL, clock: ManualClock, random: Double = 0.5) -> OFREPOptions {
        OFREPOptions(
            baseURL: baseURL, headers: ["Authorization": "Bearer qa-secret", "X-API-Key": "k"],
            context: ["targetingKey": OverrideValue(string: "qa-phone")], requestTimeout: .seconds(60), clock: clock,
            random: { random })
    }

    /// A bulk answer with one flag and `streams` (the `eventStreams` members, as JSON).
    private static func bulk(_ streams: [String]) -> LoopbackResponse {
        .json(#"{"flags":[{"key":"n","value":1}],"eventStreams":[\#(streams.joined(separator: ","))]}"#)
    }

    @Test("an event stream on another origin gets none of the configured headers; one on the server's origin does")
    func streamOnAnotherOrigin() async throws {
        try await offCooperativePool(timing: {
            let events = LoopbackEventStream()
            let other = try LoopbackHTTPServer.started(keepAlive: true) { request in
                request.method == "GET" ? .eventStream(events) : .status(204)
            }
            defer { other.stop() }
            let url = other.url("/events?token=t")
            let server = try LoopbackHTTPServer.started(keepAlive: true) { _ in
                Self.bulk([#"{"type":"sse","url":"\#(url.absoluteString)"}"#])
            }
            defer { server.stop() }
            let provider = OFREPProvider(options: Self.options(server.baseURL, clock: ManualClock()))
            provider.start()
            defer { provider.stop() }
            #expect(await events.waitForConnections(1))
            let stream = try #require(other.requests.last { $0.method == "GET" })
            #expect(stream.query["token"] == "t")
            #expect(stream.headers["Accept"] == "text/event-stream")
            #expect(stream.headers["Authorization"] == nil)
            #expect(stream.headers["X-API-Key"] == nil)
            #expect(server.requests.first?.headers["Authorization"] == "Bearer qa-secret")
        })
    }

    @Test("of many streams offered, one is followed, and fetches go on beside it")
    func oneStreamOfMany() async throws {
        try await offCooperativePool(timing: {
            let events = LoopbackEventStream()
            let streams = (0..<8).map { #"{"type":"sse","endpoint":{"requestUri":"/events?n=\#($0)"}}"# }
            let server = try LoopbackHTTPServer.started(keepAlive: true) { request in
                switch request.method {
                case "GET": .eventStream(events)
                case "POST": Self.bulk(streams)
                default: .status(204)
                }
            }
            defer { server.stop() }
            var options = Self.options(server.baseURL, clock: ManualClock())
            options.requestTimeout = .seconds(20)
            let provider = OFREPProvider(options: options)
            provider.start()
            defer { provider.stop() }
            #expect(await events.waitForConnections(1))
            // The stream's opening revalidates; then three fetches more, each answered.
            #expect(
                await eventually {
                    server.requests.filter { $0.method == "POST" }.count == 2 && provider.fetchCount == 2
                        && provider.lastError == nil
                })
            for _ in 0..<3 {
                let before = server.requests.filter { $0.method == "POST" }.count
                await provider.refresh()
                #expect(provider.lastError == nil, "\(provider.lastError ?? "")")
                #expect(server.requests.filter { $0.method == "POST" }.count == before + 1)
            }
            #expect(events.openConnectionCount == 1)
            #expect(server.requests.filter { $0.method == "GET" }.map(\.query["n"]) == ["0"])
            #expect(provider.connectedStreamCount == 1)
        })
    }

    @Test("429 with Retry-After 0, negative, absent or a past date waits at least the minimum delay, doubling")
    func rateLimited() async throws {
        try await offCooperativePool(timing: {
            for retryAfter in ["0", "-5", nil, "Thu, 01 Jan 1970 00:00:00 GMT"] {
                let server = try LoopbackHTTPServer.started(keepAlive: true) { _ in
                    .json(
                        #"{"errorDetails":"slow down"}"#, status: 429,
                        headers: retryAfter.map { ["Retry-After": $0] } ?? [:])
                }
                defer { server.stop() }
                let clock = ManualClock()
                let provider = OFREPProvider(options: Self.options(server.baseURL, clock: clock))
                provider.start()
                defer { provider.stop() }
                var pauses: [Duration] = []
                for round in 1...4 {
                    try await clock.waitForSleepers(timeout: .seconds(60))
                    #expect(server.requestCount == round, "Retry-After \(retryAfter ?? "absent")")
                    let deadline = try #require(clock.nextDeadline)
                    pauses.append(clock.now.duration(to: deadline))
                    clock.advance(to: deadline)
                    #expect(await server.waitForRequests(count: round + 1, timeout: .seconds(60)))
                }
                #expect(pauses == [.seconds(1), .seconds(2), .seconds(4), .seconds(8)], "\(retryAfter ?? "absent")")
                #expect(provider.lastError?.contains("status 429") == true)
            }
        })
    }

    @Test("429 waits for a Retry-After longer than the backoff; an answer resets the backoff")
    func rateLimitedThenAnswered() async throws {
        try await offCooperativePool(timing: {
            let limited = AnnotatedMutex(true)
            let server = try LoopbackHTTPServer.started(keepAlive: true) { _ in
                limited.withLock { $0 }
                    ? .json("{}", status: 429, headers: ["Retry-After": "30"]) : Self.bulk([])
            }
            defer { server.stop() }
            let clock = ManualClock()
            // Jitter at its lowest (0.5×): the pause is still never under the minimum delay.
            let provider = OFREPProvider(options: Self.options(server.baseURL, clock: clock, random: 0))
            provider.start()
            defer { provider.stop() }
            try await clock.waitForSleepers(timeout: .seconds(60))
            #expect(try clock.now.duration(to: #require(clock.nextDeadline)) == .seconds(30))
            limited.withLock { $0 = false }
            clock.advance(by: .seconds(30))
            #expect(await eventually { provider.flags.count == 1 })
            #expect(provider.rateLimitedPause(times: 1, asked: .zero) == .seconds(1))
            #expect(provider.rateLimitedPause(times: 3, asked: .zero) == .seconds(2))
            #expect(provider.rateLimitedPause(times: 1, asked: .seconds(7)) == .seconds(7))
        })
    }

    @Test(
        "a stream that sends a line longer than its limit is closed with an error, then reconnected after the backoff")
    func overlongLine() async throws {
        try await Self.streamClosedForWhatItSent(
            "data: " + String(repeating: "x", count: OFREPProvider.streamLineLimit + 1), error: "more than 65536 bytes")
    }

    @Test("a stream sending valid events faster than they are read is closed with an error, then reconnected")
    func refetchFlood() async throws {
        // 36 MB of valid messages at once: the loopback delivers them far faster than each is read as JSON.
        let event = #"data: {"type":"refetchEvaluation","etag":"\"v2\"","lastModified":1771622898}"# + "\n\n"
        let provider = try await Self.streamClosedForWhatItSent(
            String(repeating: event, count: 400_000), error: "sent faster than it was read")
        #expect(provider.refetchMessageCount < 400_000)
    }

    /// Opens a provider's stream, sends `text` on it, and checks that the stream is closed with `error`, then
    /// reconnected after the backoff.
    @discardableResult
    static func streamClosedForWhatItSent(_ text: String, error: String) async throws -> OFREPProvider {
        try await offCooperativePool(timing: {
            let server = try FakeOFREPServer(flags: ["n": "1"])
            let clock = ManualClock()
            let provider = OFREPProvider(options: Self.options(server.baseURL, clock: clock))
            provider.start()
            defer { provider.stop() }
            #expect(await server.events.waitForConnections(1))
            // The opening's revalidation is answered before the text comes (its answer would clear the error): a
            // refresh waits for it, fetches taking turns.
            #expect(await eventually { server.bulkRequests.count == 2 })
            await provider.refresh()
            #expect(provider.lastError == nil)
            server.events.send(text)
            #expect(
                await eventually { provider.lastError?.contains(error) == true }, "\(provider.lastError ?? "no error")")
            #expect(await eventually { server.events.openConnectionCount == 0 })
            try await clock.waitForSleepers(timeout: .seconds(60))
            clock.advance(by: .seconds(60))
            #expect(await eventually { server.events.openedConnectionCount == 2 })
            return provider
        })
    }

    @Test("the parser holds one event's data byte for byte: many empty data lines count as their bytes")
    func parserEventLimit() {
        var parser = ServerSentEventParser(lineLimit: 16, eventLimit: 100)
        // 60 lines of "data:" are 60 bytes of data (a line feed each): kept; 120 are over the limit: dropped.
        let kept = parser.feed(Array(String(repeating: "data:\n", count: 60).utf8) + [10])
        #expect(kept.map(\.data) == [String(repeating: "\n", count: 59)])
        #expect(parser.feed(Array(String(repeating: "data:\n", count: 120).utf8) + [10]).isEmpty)
        #expect(parser.droppedEvents == 1)
        #expect(parser.feed(Array("data: a\ndata: b\n\n".utf8)).map(\.data) == ["a\nb"])
        // A line over the limit is cut and counted once, however long it goes on.
        #expect(parser.cutLines == 0)
        _ = parser.feed(Array(("data: " + String(repeating: "y", count: 1000)).utf8))
        _ = parser.feed(Array(String(repeating: "y", count: 1000).utf8))
        #expect(parser.cutLines == 1)
        #expect(parser.feed(Array("\n\n".utf8)).first?.isTruncated == true)
    }
}
