import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffRemote

/// The transport against servers that try to take what is not theirs: credentials by a redirect to another origin.
@Suite(
    "Remote HTTP transport: hostile servers",
    .enabled(if: HostileServerTests.inOwnProcess, Comment(rawValue: HostileServerTests.reason)))
struct RemoteHTTPTransportHostileTests {
    private static let credentials: [(name: String, value: String)] = [
        ("Authorization", "Bearer secret"), ("X-Goog-Api-Key", "key"), ("Cookie", "c=1"),
        ("Accept", "application/json"),
    ]

    /// A server that sends every request on to `location` with `status`.
    private func redirecting(to location: URL, status: Int = 307) throws -> LoopbackHTTPServer {
        try LoopbackHTTPServer.started { _ in .status(status, headers: ["Location": location.absoluteString]) }
    }

    @Test("a redirect to another origin (another port) drops the credentials; within the origin they stay")
    func redirectDropsCredentialsAcrossOrigins() async throws {
        let target = try LoopbackHTTPServer.started { _ in .text("ok") }
        defer { target.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1 << 10)
        defer { transport.invalidate() }
        for status in [301, 302, 307, 308] {
            target.clearRequests()
            let away = try redirecting(to: target.url("/landed"), status: status)
            defer { away.stop() }
            let request = RemoteHTTPRequest(method: "GET", url: away.url("/start"), headers: Self.credentials)
            let answer = try await transport.send(request, timeout: .seconds(10)).get()
            #expect(answer.status == 200, "status \(status)")
            let landed = try #require(target.requests.first, "status \(status)")
            #expect(landed.path == "/landed")
            #expect(landed.headers["Authorization"] == nil, "status \(status)")
            #expect(landed.headers["X-Goog-Api-Key"] == nil, "status \(status)")
            #expect(landed.headers["Cookie"] == nil, "status \(status)")
            #expect(landed.headers["Accept"] == "application/json", "status \(status)")
        }

        // Within the origin: a redirect to another path of the same server keeps them.
        let same = try LoopbackHTTPServer.started(keepAlive: true) { request in
            request.path == "/start" ? .status(307, headers: ["Location": "/landed"]) : .text("ok")
        }
        defer { same.stop() }
        let request = RemoteHTTPRequest(method: "GET", url: same.url("/start"), headers: Self.credentials)
        #expect(try await transport.send(request, timeout: .seconds(10)).get().status == 200)
        let landed = try #require(same.requests.last)
        #expect(landed.path == "/landed")
        #expect(landed.headers["Authorization"] == "Bearer secret")
        #expect(landed.headers["X-Goog-Api-Key"] == "key")
    }

    @Test("credentials dropped on the way out stay dropped when a redirect comes back to the first origin")
    func redirectBackStaysWithoutCredentials() async throws {
        let home = try LoopbackHTTPServer.started(keepAlive: true) { _ in .text("ok") }
        defer { home.stop() }
        let away = try redirecting(to: home.url("/back"))
        defer { away.stop() }
        home.setHandler { request in
            request.path == "/start" ? .status(307, headers: ["Location": away.url("/x").absoluteString]) : .text("ok")
        }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1 << 10)
        defer { transport.invalidate() }
        let request = RemoteHTTPRequest(method: "GET", url: home.url("/start"), headers: Self.credentials)
        #expect(try await transport.send(request, timeout: .seconds(10)).get().status == 200)
        #expect(away.requests.first?.headers["Authorization"] == nil)
        let back = try #require(home.requests.last)
        #expect(back.path == "/back")
        #expect(back.headers["Authorization"] == nil)
    }

    @Test("a stream redirected to another origin gets no credentials")
    func streamRedirectDropsCredentials() async throws {
        let events = LoopbackEventStream()
        let target = try LoopbackHTTPServer.started(keepAlive: true) { request in
            request.method == "OPTIONS" ? .status(204) : .eventStream(events)
        }
        defer { target.stop() }
        let away = try redirecting(to: target.url("/events"))
        defer { away.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 0)
        defer { transport.invalidate() }
        let stream = transport.openStream(
            RemoteHTTPRequest(method: "GET", url: away.url("/events"), headers: Self.credentials),
            idleTimeout: .seconds(30))
        var status: Int?
        for await event in stream {
            if case .response(let code, _) = event {
                status = code
                break
            }
        }
        #expect(status == 200)
        let landed = try #require(target.requests.last { $0.method == "GET" })
        #expect(landed.headers["Authorization"] == nil)
        #expect(landed.headers["Cookie"] == nil)
        #expect(away.requests.last { $0.method == "GET" }?.headers["Authorization"] == "Bearer secret")
    }

    @Test("a stream whose reader falls behind ends after a bounded backlog, with the reason")
    func streamBacklogIsBounded() async throws {
        // 40 MiB at the loopback's pace, while the reader reads nothing: without a bound all of it waits in memory.
        let size = 40 << 20
        let server = try LoopbackHTTPServer.started { request in
            guard request.method == "GET" else { return .status(204) }
            var response = LoopbackResponse.oversized(bytes: size, contentType: "text/event-stream")
            response.chunked = true
            return response
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 0)
        defer { transport.invalidate() }
        let url = server.url("/events")
        var iterator = transport.openStream(RemoteHTTPRequest(method: "GET", url: url), idleTimeout: .seconds(60))
            .makeAsyncIterator()
        guard case .response(200, _)? = await iterator.next() else {
            Issue.record("no response first")
            return
        }
        // The server has written all it could: the whole body, or until the client closed the connection.
        #expect(await server.wait(timeout: .seconds(60)) { $0.deliveries.contains { $0.bodyBytes > size } })
        var pieces = 0
        var bytes = 0
        var end: RemoteHTTPStreamEvent?
        while let event = await iterator.next() {
            if case .data(let piece) = event {
                pieces += 1
                bytes += piece.count
            } else {
                end = event
            }
        }
        #expect(end == .finished(.streamBacklog(url: url, limit: RemoteHTTPTransport.streamBacklogLimit)))
        #expect(pieces < RemoteHTTPTransport.streamBacklogLimit)
        #expect(bytes < size / 2, "\(bytes) bytes were held for the reader")
    }

    @Test(
        "a chunked body far over the limit is refused as too large; reading waits for the delegate, so little piles up")
    func chunkedBodyOverTheLimit() async throws {
        // 96 MiB written as fast as the loopback takes it, against a limit of 4 MiB.
        let server = try LoopbackHTTPServer.started { _ in
            var response = LoopbackResponse.oversized(bytes: 96 << 20)
            response.chunked = true
            return response
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 4 << 20)
        defer { transport.invalidate() }
        let url = server.url("/bulk")
        let outcome = await transport.send(RemoteHTTPRequest(method: "GET", url: url), timeout: .seconds(60))
        #expect(outcome.failure == .bodyTooLarge(url: url, limit: 4 << 20, declared: nil))
        // The server has written all it could; whatever libcurl read meanwhile waited at most this deep.
        #expect(await server.wait(timeout: .seconds(60)) { $0.deliveries.count == 1 })
        #expect(transport.deepestDelegateBacklog <= RemoteHTTPDelegateQueue.backlogLimit)
        #expect(transport.deepestDelegateBacklog > 0)
    }

    @Test("a small gzip body inflating far over the limit is refused as too large; inflating waits for the delegate")
    func gzipBodyOverTheLimit() async throws {
        // About 400 KB on the wire, 64 MiB once inflated, against a limit of 4 MiB.
        let body = Self.gzipOfZeros(matches: (64 << 20) / 258)
        let server = try LoopbackHTTPServer.started { _ in
            LoopbackResponse(headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"], body: body)
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 4 << 20)
        defer { transport.invalidate() }
        let url = server.url("/bulk")
        let outcome = await transport.send(RemoteHTTPRequest(method: "GET", url: url), timeout: .seconds(60))
        #expect(outcome.failure == .bodyTooLarge(url: url, limit: 4 << 20, declared: nil))
        #expect(transport.deepestDelegateBacklog <= RemoteHTTPDelegateQueue.backlogLimit)
        #expect(transport.deepestDelegateBacklog > 0)
    }

    /// A gzip member whose deflate data is one zero byte and then `matches` copies of the 258 bytes before
    /// (fixed Huffman codes: 8 bits for the literal, 8 + 5 for each match). Its trailer's CRC is not computed: the
    /// limit is passed long before a reader checks it.
    private static func gzipOfZeros(matches: Int) -> Data {
        var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        var accumulator: UInt32 = 0
        var count: UInt32 = 0
        func put(_ value: UInt32, bits: UInt32) {
            accumulator |= value << count
            count += bits
            while count >= 8 {
                bytes.append(UInt8(accumulator & 0xFF))
                accumulator >>= 8
                count -= 8
            }
        }
        // Huffman codes are sent from their first bit: reversed into the low-bit-first stream.
        func code(_ value: UInt32, bits: UInt32) {
            var reversed: UInt32 = 0
            for bit in 0..<bits where value & (1 << bit) != 0 { reversed |= 1 << (bits - 1 - bit) }
            put(reversed, bits: bits)
        }
        put(1, bits: 1)  // the last block
        put(1, bits: 2)  // fixed Huffman codes
        code(0x30, bits: 8)  // literal 0
        for _ in 0..<matches {
            code(0xC5, bits: 8)  // length 258 (code 285)
            code(0, bits: 5)  // distance 1
        }
        code(0, bits: 7)  // end of block
        if count > 0 { put(0, bits: 8 - count) }
        let size = UInt32(truncatingIfNeeded: 1 + matches * 258)
        bytes += [0, 0, 0, 0]
        bytes += (0..<4).map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) }
        return Data(bytes)
    }

    @Test("a warm-up that gets no answer ends the stream with its timeout; no stream is sent to wait the same way")
    func unansweredWarmUp() async throws {
        let server = try LoopbackHTTPServer.started(keepAlive: true) { request in
            var response = LoopbackResponse.status(204)
            if request.method == "OPTIONS" { response.delay = .seconds(120) }
            return response
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 0)
        defer { transport.invalidate() }
        let url = server.url("/events")
        var events: [RemoteHTTPStreamEvent] = []
        for await event in transport.openStream(RemoteHTTPRequest(method: "GET", url: url), idleTimeout: .seconds(2)) {
            events.append(event)
        }
        #expect(events == [.finished(.timedOut(after: .seconds(2), url: url))])
        #expect(server.requests.map(\.method) == ["OPTIONS"])
    }

    @Test("origins: scheme, host and port, the default port when none is written, case-insensitive")
    func origins() throws {
        func origin(_ text: String) throws -> String { RemoteHTTPTransport.origin(try #require(URL(string: text))) }
        #expect(try origin("http://h/a") == origin("HTTP://H:80/b?c"))
        #expect(try origin("https://h/a") == origin("https://h:443/"))
        #expect(try origin("http://h/a") != origin("https://h/a"))
        #expect(try origin("http://h:8080/") != origin("http://h:8081/"))
        #expect(try origin("http://h/") != origin("http://g/"))
    }
}
