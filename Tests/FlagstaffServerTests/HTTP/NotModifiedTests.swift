import Flagstaff
import FlagstaffServer
import FlagstaffTestSupport
import Foundation
import Testing

/// The conditional-GET fast path: a poll that has the values gets its 304 on the event loop, before the router,
/// with the router's headers; everything it must not answer still reaches the router.
@Suite struct NotModifiedTests {
    /// Responses read off one raw connection: status line, headers (lower-cased names), body.
    struct Reply {
        var statusLine: String
        var headers: [String: String]
        var body: Data

        /// The headers without `date` (it changes with the second).
        var comparable: [String: String] { headers.filter { $0.key != "date" } }

        /// Every complete response in `data`, in order (bodies framed by `Content-Length`).
        static func all(_ data: Data) -> [Reply] {
            var replies: [Reply] = []
            var rest = data[...]
            while let end = rest.range(of: Data("\r\n\r\n".utf8)) {
                let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
                        .trimmingCharacters(in: .whitespaces)
                }
                let length = headers["content-length"].flatMap(Int.init) ?? 0
                guard rest.distance(from: end.upperBound, to: rest.endIndex) >= length else { break }
                let bodyEnd = rest.index(end.upperBound, offsetBy: length)
                replies.append(
                    Reply(statusLine: lines[0], headers: headers, body: Data(rest[end.upperBound..<bodyEnd])))
                rest = rest[bodyEnd...]
            }
            return replies
        }
    }

    /// Sends `requests` (already joined, possibly pipelined) on one connection and reads `count` responses.
    static func exchange(port: Int, _ requests: String, count: Int) async throws -> [Reply] {
        try await offCooperativePool {
            let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
            try connection.send(requests)
            return read(connection, count: count, after: [])
        }
    }

    /// Sends each request after the answer to the one before, on one keep-alive connection.
    static func oneByOne(port: Int, _ requests: [String]) async throws -> [Reply] {
        try await offCooperativePool {
            let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
            var replies: [Reply] = []
            for request in requests {
                try connection.send(request)
                replies = read(connection, count: replies.count + 1, after: replies)
            }
            return replies
        }
    }

    /// Reads until `count` responses are complete (at most 10 s); `earlier`'s bytes were read before.
    private static func read(_ connection: LoopbackHTTPRawConnection, count: Int, after earlier: [Reply]) -> [Reply] {
        var received = Data()
        let deadline = ContinuousClock.now + .seconds(10)
        while earlier.count + Reply.all(received).count < count, ContinuousClock.now < deadline {
            received += connection.receive(until: "\r\n", timeout: .milliseconds(100))
        }
        return earlier + Reply.all(received)
    }

    static func get(_ path: String, _ headers: String = "", method: String = "GET") -> String {
        "\(method) \(path) HTTP/1.1\r\nHost: t\r\n\(headers)\r\n"
    }

    @Test("a poll that has the values: 304 before the router, with the router's headers and the client noted")
    func answeredEarlyLikeTheRouter() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let etag = ServedSnapshot(registry: registry).etag
        let early = try await Self.exchange(
            port: running.port, Self.get("/api/frontend?appName=web%20shop", "If-None-Match: \(etag)\r\n"), count: 1)
        #expect(early.first?.statusLine == "HTTP/1.1 304 Not Modified")
        #expect(running.server.earlyNotModified.value == 1)
        #expect(running.server.clients.clients.contains { $0.name == "web shop" })
        // `Connection: close` is left to the router (it closes the connection): its 304 is the reference.
        let routed = try await Self.exchange(
            port: running.port, Self.get("/api/frontend", "If-None-Match: \(etag)\r\nConnection: close\r\n"), count: 1)
        #expect(running.server.earlyNotModified.value == 1, "the router answered this one")
        let reference = try #require(routed.first)
        let answer = try #require(early.first)
        #expect(answer.comparable == reference.comparable)
        #expect(answer.headers["etag"] == etag && answer.headers["date"]?.hasSuffix(" GMT") == true)
        #expect(answer.headers["content-length"] == nil && answer.body.isEmpty)
    }

    @Test("with an Origin: the CORS header as the router adds it; HEAD and the gzip tag: 304 early too")
    func originHeadAndGzipTag() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let etag = ServedSnapshot(registry: registry).etag
        let headers = "If-None-Match: \(etag)\r\nOrigin: http://app.test\r\n"
        let replies = try await Self.exchange(
            port: running.port,
            Self.get("/api/proxy", headers) + Self.get("/api/proxy", headers + "Connection: close\r\n"), count: 2)
        try #require(replies.count == 2)
        #expect(replies[0].headers["access-control-allow-origin"] == "*")
        #expect(replies[0].comparable == replies[1].comparable, "early and routed 304s differ")
        let gzipTag = ServerReply.gzipTag(etag)
        let more = try await Self.exchange(
            port: running.port,
            Self.get("/api/client/features", "If-None-Match: W/\(gzipTag)\r\n", method: "HEAD")
                + Self.get("/api/frontend", "If-None-Match: \"other\", \(etag)\r\n"), count: 2)
        #expect(more.map(\.statusLine) == ["HTTP/1.1 304 Not Modified", "HTTP/1.1 304 Not Modified"])
        #expect(running.server.earlyNotModified.value == 3)
    }

    @Test("with tokens: a wrong or missing token gets the router's 401, never a 304; a right one 304 early")
    func tokensBeforeAny304() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(
            registry: registry, configuration: FlagServerConfiguration(tokens: ["secret"]))
        defer { Task { await running.stop() } }
        let etag = ServedSnapshot(registry: registry).etag
        let replies = try await Self.oneByOne(
            port: running.port,
            [
                Self.get("/api/frontend", "If-None-Match: \(etag)\r\n"),
                Self.get("/api/frontend", "If-None-Match: \(etag)\r\nAuthorization: wrong\r\n"),
                Self.get("/api/frontend", "If-None-Match: \(etag)\r\nAuthorization: Bearer wrong\r\n"),
                Self.get("/api/frontend", "If-None-Match: \(etag)\r\nAuthorization: Bearer secret\r\n"),
                Self.get("/api/client/features", "If-None-Match: \(etag)\r\nAuthorization: secret\r\n"),
            ])
        #expect(
            replies.map(\.statusLine) == [
                "HTTP/1.1 401 Unauthorized", "HTTP/1.1 401 Unauthorized", "HTTP/1.1 401 Unauthorized",
                "HTTP/1.1 304 Not Modified", "HTTP/1.1 304 Not Modified",
            ])
        #expect(running.server.earlyNotModified.value == 2)
    }

    @Test("pipelined behind a request the router has: answers stay in order; a stale tag gets the new body")
    func orderAndChanges() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let etag = ServedSnapshot(registry: registry).etag
        let conditional = Self.get("/api/frontend", "If-None-Match: \(etag)\r\n")
        let replies = try await Self.exchange(
            port: running.port, Self.get("/api/frontend") + conditional + Self.get("/nowhere") + conditional,
            count: 4)
        #expect(
            replies.map(\.statusLine) == [
                "HTTP/1.1 200 OK", "HTTP/1.1 304 Not Modified", "HTTP/1.1 404 Not Found", "HTTP/1.1 304 Not Modified",
            ])
        #expect(replies.first?.headers["etag"] == etag)
        try registry.setOverrideValues(["blueText": .set(.on)])
        let after = try await Self.exchange(port: running.port, conditional + conditional, count: 2)
        #expect(after.map(\.statusLine) == ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"])
        #expect(
            after.allSatisfy {
                $0.headers["etag"] != etag && String(decoding: $0.body, as: UTF8.self).contains("blueText")
            })
    }

    @Test("a request with a body, or a path that only looks alike, goes to the router")
    func declined() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(registry: registry)
        defer { Task { await running.stop() } }
        let etag = ServedSnapshot(registry: registry).etag
        let replies = try await Self.exchange(
            port: running.port,
            "GET /api/frontend HTTP/1.1\r\nHost: t\r\nIf-None-Match: \(etag)\r\nContent-Length: 2\r\n\r\n{}"
                + Self.get("/api/frontend/", "If-None-Match: \(etag)\r\n")
                + Self.get("/api/frontend", "If-None-Match: \(etag)\r\n", method: "POST"),
            count: 3)
        #expect(replies.count == 3)
        #expect(replies.first?.statusLine == "HTTP/1.1 304 Not Modified", "the router's 304")
        #expect(running.server.earlyNotModified.value == 0)
    }

    @Test("a connection that only polls early is active: the idle timeout does not close it")
    func earlyAnswersKeepTheConnection() async throws {
        let registry = try ServedFixtures.registry()
        let running = try await RunningServer(
            registry: registry, configuration: FlagServerConfiguration(idleTimeout: .milliseconds(1_500)))
        defer { Task { await running.stop() } }
        let etag = ServedSnapshot(registry: registry).etag
        let port = running.port
        let answered = try await offCooperativePool { () throws -> Int in
            let connection = try LoopbackHTTPRawConnection(port: UInt16(port))
            var answered = 0
            // 4.5 s of polls 150 ms apart: three idle timeouts' worth, the connection never quiet for one.
            for _ in 0..<30 {
                try connection.send(Self.get("/api/frontend", "If-None-Match: \(etag)\r\n"))
                let reply = connection.receive(until: "\r\n\r\n", timeout: .seconds(10))
                guard String(decoding: reply, as: UTF8.self).hasPrefix("HTTP/1.1 304") else { break }
                answered += 1
                Thread.sleep(forTimeInterval: 0.15)
            }
            return answered
        }
        #expect(answered == 30, "the connection was closed after \(answered) polls")
        #expect(running.server.earlyNotModified.value == 30)
    }

    @Test("the snapshot is reused early only while nothing changed")
    func currentIfUnchanged() throws {
        let registry = try ServedFixtures.registry()
        let live = LiveSnapshot(registry: registry)
        let first = live.current()
        #expect(live.currentIfUnchanged() === first)
        try registry.setOverrideValues(["blueText": .set(.on)])
        #expect(live.currentIfUnchanged() == nil, "a change is left to current(), which rebuilds")
        let second = live.current()
        #expect(second !== first && live.currentIfUnchanged() === second)
    }

    @Test("ETag lists are matched in place: elements, weak tags, the gzip tag, nothing else")
    func matching() {
        let tag = "\"0123abcd\""
        #expect(ServerReply.matches("\"0123abcd-gzip\"", tag) && ServerReply.matches("W/\"0123abcd-gzip\"", tag))
        #expect(!ServerReply.matches("\"0123abcd-gzi\"", tag) && !ServerReply.matches("\"0123abcd\"-gzip", tag))
        #expect(!ServerReply.matches("\"0123abc\"", tag) && !ServerReply.matches("", tag))
        #expect(!ServerReply.matches(" , ,", tag) && !ServerReply.matches("0123abcd", tag))
        #expect(ServerReply.matches("\"a\",\"0123abcd\"", tag) && ServerReply.matches("\"a\" ,\t*", tag))
    }
}

/// The `Date` header of the early answers.
@Suite struct HTTPDateTests {
    @Test("IMF-fixdate, as Foundation formats it, across leap days, centuries and before 1970")
    func formats() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let samples =
            [-86_401, -1, 951_782_400, 951_868_799, 4_107_542_399, 1_798_761_599, 253_402_300_799]
            + (0..<200).map { $0 * 15_778_463 + 12_345 }
        for seconds in samples {
            #expect(
                HTTPDate.format(secondsSince1970: seconds)
                    == formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds))), "\(seconds)")
        }
    }
}
