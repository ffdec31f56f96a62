import FlagstaffTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Self-tests of the shared loopback server, through a real `URLSession` client.
@Suite("LoopbackHTTPServer")
struct LoopbackHTTPServerTests {
    private func session(timeout: TimeInterval = 5) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        return URLSession(configuration: configuration)
    }

    @Test("serves the handler's response and records method, path, query, headers and body")
    func roundTrip() async throws {
        let server = try LoopbackHTTPServer.started { request in
            .jsonObject(
                [
                    "path": request.path, "key": request.query["key"] ?? "-",
                    "etag": request.headers["IF-NONE-MATCH"] ?? "-",
                ],
                headers: ["ETag": "\"v2\""])
        }
        defer { server.stop() }
        var request = URLRequest(url: server.url("/v1/projects/p/namespaces/firebase:fetch?key=a%20b"))
        request.httpMethod = "POST"
        request.setValue("\"v1\"", forHTTPHeaderField: "If-None-Match")
        request.httpBody = Data(#"{"x":1}"#.utf8)
        let (data, response) = try await session().data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "etag") == "\"v2\"")
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(object == ["path": "/v1/projects/p/namespaces/firebase:fetch", "key": "a b", "etag": "\"v1\""])
        let recorded = try #require(server.requests.first)
        #expect(server.requestCount == 1)
        #expect(recorded.method == "POST")
        #expect(recorded.jsonBody?["x"] as? Int == 1)
        #expect(recorded.headers["if-none-match"] == "\"v1\"")
    }

    @Test("a delayed response makes the client time out, and stop() interrupts the delay")
    func delayTimesOut() async throws {
        let server = try LoopbackHTTPServer.started { _ in LoopbackResponse(status: 200, delay: .seconds(30)) }
        let clock = ContinuousClock()
        // swift-corelibs-foundation truncates URLSession timeouts to whole seconds, so use 1 s.
        let error = await #expect(throws: URLError.self) {
            _ = try await session(timeout: 1).data(from: server.url("/slow"))
        }
        #expect(error?.code == .timedOut)
        let stopStart = clock.now
        server.stop()
        #expect(clock.now - stopStart < .seconds(5))
    }

    @Test(
        "truncated body, close without response and reset all surface as client errors",
        arguments: [
            LoopbackFault.truncatedBody(sentBytes: 10), .closeWithoutResponse, .resetConnection,
        ])
    func faults(fault: LoopbackFault) async throws {
        let server = try LoopbackHTTPServer.started { _ in
            var response = LoopbackResponse.json(String(repeating: "x", count: 1000))
            response.fault = fault
            return response
        }
        defer { server.stop() }
        await #expect(throws: (any Error).self) {
            _ = try await session().data(from: server.url("/fault"))
        }
        #expect(server.requestCount >= 1)
    }

    @Test("chunked and oversized bodies arrive whole; content type is what the handler set")
    func chunkedAndOversized() async throws {
        let server = try LoopbackHTTPServer.started { request in
            if request.path == "/big" { return .oversized(bytes: 3_000_000, contentType: "text/html") }
            var response = LoopbackResponse.text(String(repeating: "abc", count: 10_000))
            response.chunked = true
            return response
        }
        defer { server.stop() }
        let (chunked, _) = try await session().data(from: server.url("/chunked"))
        #expect(chunked.count == 30_000)
        let (big, response) = try await session().data(from: server.url("/big"))
        #expect(big.count == 3_000_000)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/html")
    }

    @Test("Expect: 100-continue gets an interim 100 before the body is sent")
    func expectContinue() throws {
        let server = try LoopbackHTTPServer.started { request in .text("got " + (request.bodyText ?? "?")) }
        defer { server.stop() }
        let connection = try LoopbackHTTPRawConnection(port: server.port)
        defer { connection.close() }
        try connection.send(
            "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        let interim = String(decoding: connection.receive(until: "\r\n\r\n", timeout: .seconds(10)), as: UTF8.self)
        #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
        try connection.send("hello")
        let reply = String(decoding: connection.receive(timeout: .seconds(10)), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(reply.hasSuffix("\r\n\r\ngot hello"))
    }

    @Test("malformed requests are dropped without calling the handler or crashing")
    func malformedRequest() throws {
        let server = try LoopbackHTTPServer.started { _ in .text("never") }
        defer { server.stop() }
        let connection = try LoopbackHTTPRawConnection(port: server.port)
        try connection.send("NONSENSE\r\nContent-Length: -3\r\n\r\n")
        #expect(connection.receive(timeout: .seconds(10)).isEmpty)
        #expect(server.requestCount == 0)
    }

    @Test("a refused port refuses connections")
    func refused() async throws {
        let refused = try LoopbackRefusedPort()
        defer { refused.close() }
        await #expect(throws: URLError.self) {
            _ = try await session().data(from: refused.baseURL.appendingPathComponent("x"))
        }
    }

    @Test("setHandler swaps behaviour; requests can be cleared; waitForRequests polls")
    func swapHandler() async throws {
        let server = try LoopbackHTTPServer.started { _ in .status(503) }
        defer { server.stop() }
        let (_, first) = try await session().data(from: server.url("a"))
        #expect((first as? HTTPURLResponse)?.statusCode == 503)
        server.setHandler { _ in .text("fine") }
        let (body, second) = try await session().data(from: server.url("b"))
        #expect((second as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: body, as: UTF8.self) == "fine")
        #expect(await server.waitForRequests(count: 2, timeout: .seconds(1)))
        #expect(server.requests.map(\.path) == ["/a", "/b"])
        server.clearRequests()
        #expect(server.requestCount == 0)
    }
}
