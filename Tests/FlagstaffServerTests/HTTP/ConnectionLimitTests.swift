import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Hummingbird
import Testing

/// Bodies over the limit and stopping the server, against the real server on 127.0.0.1: a client cannot make
/// it wait for a body it will refuse, nor keep it running after it was told to stop.
@Suite struct ConnectionLimitTests {
    /// Seconds since `start`.
    private static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = start.duration(to: .now)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Sends `request` on a new connection and reads until the server closes it (at most `limit`): what came
    /// back, and whether and when it closed.
    private static func exchange(port: Int, _ request: String, limit: Duration = .seconds(10)) async throws -> (
        reply: String, closedAfter: Double?
    ) {
        try await offCooperativePool {
            let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
            try connection.send(request)
            let start = ContinuousClock.now
            let reply = connection.receive(timeout: limit)
            let elapsed = seconds(since: start)
            return (String(decoding: reply, as: UTF8.self), elapsed < Double(limit.components.seconds) ? elapsed : nil)
        }
    }

    @Test("a Content-Length far above the limit gets 413 from the header at once, then the connection is closed")
    func contentLengthAboveLimit() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(), configuration: FlagServerConfiguration(bodyLimit: 1024))
        defer { Task { await running.stop() } }
        for length in ["10000000000", "18446744073709551615", "1025"] {
            // Only the head and a few bytes of the announced body: the server must not wait for the rest.
            let (reply, closed) = try await Self.exchange(
                port: running.port,
                "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: t\r\nContent-Length: \(length)\r\n\r\n{\"context\":")
            #expect(reply.hasPrefix("HTTP/1.1 413"), "Content-Length \(length): \(reply)")
            #expect(reply.lowercased().contains("connection: close"))
            #expect(reply.contains("larger than this server accepts (1024 bytes)"))
            // The server half-closes after the answer, then closes when the client does or after its linger time
            // (2 s); this client never closes.
            #expect(closed != nil, "Content-Length \(length): the connection stayed open for 10 s")
        }
        // A length the HTTP parser cannot hold is refused by it (400), at once too.
        let (overflow, overflowClosed) = try await Self.exchange(
            port: running.port,
            "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999999\r\n\r\n{")
        #expect(overflow.hasPrefix("HTTP/1.1 400") && overflowClosed != nil, "\(overflow)")
        // At the limit the request is read and answered as usual.
        let body = "{\"context\":{}}" + String(repeating: " ", count: 1024 - 14)
        let (reply, _) = try await Self.exchange(
            port: running.port,
            "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: t\r\nContent-Length: 1024\r\nConnection: close\r\n\r\n\(body)"
        )
        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply)")
    }

    @Test("a chunked body that crosses the limit gets 413 and the connection is closed, the rest unread")
    func chunkedBodyAboveLimit() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(), configuration: FlagServerConfiguration(bodyLimit: 1024))
        defer { Task { await running.stop() } }
        let chunk = String(repeating: " ", count: 2000)
        let (reply, closed) = try await Self.exchange(
            port: running.port,
            "POST /api/client/metrics HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n7d0\r\n\(chunk)\r\n")
        #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply)")
        #expect(closed != nil, "the connection stayed open for 10 s after a 413")
    }

    @Test("Content-Length values: only a number above the limit is refused from the header")
    func contentLengthValues() {
        #expect(BodyLimitMiddleware<BasicRequestContext>.exceeds("1025", limit: 1024))
        #expect(BodyLimitMiddleware<BasicRequestContext>.exceeds("184467440737095516160", limit: 1024))
        #expect(!BodyLimitMiddleware<BasicRequestContext>.exceeds("1024", limit: 1024))
        #expect(!BodyLimitMiddleware<BasicRequestContext>.exceeds("0", limit: 1024))
        #expect(!BodyLimitMiddleware<BasicRequestContext>.exceeds("", limit: 1024))
        #expect(!BodyLimitMiddleware<BasicRequestContext>.exceeds("12a", limit: 1024))
    }

    @Test(
        "stopping gracefully while a client holds a half-sent request ends after the grace period, not the idle timeout"
    )
    func stopWithHalfSentRequest() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(),
            configuration: FlagServerConfiguration(idleTimeout: .seconds(60), shutdownGracePeriod: .milliseconds(500)))
        let connection = try LoopbackHTTPRawConnection(port: UInt16(running.port))
        defer { connection.close() }
        // A head announcing 100 bytes, and 10 of them.
        try connection.send(
            "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n{\"context\"")
        // Let the server read the head, so the request is in flight (nothing to wait on: a second, for a loaded
        // machine).
        try await Task.sleep(for: .seconds(1))
        let start = ContinuousClock.now
        await running.stop()
        let stopped = Self.seconds(since: start)
        #expect(stopped >= 0.4, "stopped after \(stopped) s: the request in flight was not given its grace period")
        // Without the grace period it waits for the idle timeout (60 s); the margin is for a machine busy with
        // every other suite (10 s seen there).
        #expect(stopped < 25, "stopped after \(stopped) s (grace period 0.5 s, idle timeout 60 s)")
    }

    @Test("a request in flight when the stop comes is still answered within the grace period")
    func requestFinishesDuringGracePeriod() async throws {
        let running = try await RunningServer(
            registry: try ServedFixtures.registry(),
            configuration: FlagServerConfiguration(shutdownGracePeriod: .seconds(30)))
        let port = running.port
        let server = running.server
        // The stop begins while the request's body is still incomplete.
        let (headSent, signal) = AsyncStream.makeStream(of: Void.self)
        let stopping = Task {
            for await _ in headSent { break }
            // Let the server read the head, so the request is in flight (nothing to wait on: a second, for a
            // loaded machine).
            try? await Task.sleep(for: .seconds(1))
            await running.stop()
        }
        let (stopBegan, reply) = try await offCooperativePool { () throws -> (Bool, String) in
            // An event stream ends at once when a graceful stop begins: how this thread knows it has begun.
            let stream = try SSETestClient(port: port, path: "/api/client/streaming")
            _ = stream.next()
            let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
            try connection.send("POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\n{")
            signal.yield()
            let stopBegan = blockingEventually { server.streams.count == 0 }
            withExtendedLifetime(stream) {}
            try connection.send("}")
            return (stopBegan, String(decoding: connection.receive(timeout: .seconds(30)), as: UTF8.self))
        }
        #expect(stopBegan, "the stop did not end the event stream")
        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply)")
        await stopping.value
    }
}
