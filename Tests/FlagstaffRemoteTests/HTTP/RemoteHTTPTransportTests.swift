import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffRemote

/// The shared HTTP transport against the real loopback server: limits, deadlines, cancellation, faults and
/// connection reuse.
@Suite("Remote HTTP transport")
struct RemoteHTTPTransportTests {
    private func get(_ transport: RemoteHTTPTransport, _ url: URL, timeout: Duration = .seconds(10))
        async -> Result<RemoteHTTPResponse, RemoteHTTPError>
    {
        await transport.send(RemoteHTTPRequest(method: "GET", url: url), timeout: timeout)
    }

    /// Sends a GET and times it on a private executor: the cooperative pool may be busy with other tests, and
    /// what is timed is the transport, not how soon the pool resumes the test.
    private func timedGet(_ transport: RemoteHTTPTransport, _ url: URL, timeout: Duration = .seconds(10))
        async -> (result: Result<RemoteHTTPResponse, RemoteHTTPError>, elapsed: Duration)
    {
        await offCooperativePool(timing: {
            let clock = ContinuousClock()
            let start = clock.now
            let result = await get(transport, url, timeout: timeout)
            return (result, clock.now - start)
        })
    }

    @Test("status, lower-cased headers and body; the request's method, headers and body reach the server")
    func roundTrip() async throws {
        let server = try LoopbackHTTPServer.started { request in
            .text(
                "got \(request.method) \(String(decoding: request.body, as: UTF8.self))", status: 201,
                headers: ["X-Thing": "v", "ETag": "\"7\""])
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        let request = RemoteHTTPRequest(
            method: "POST", url: server.url("/post"),
            headers: [("Content-Type", "text/plain"), ("X-Client", "c")], body: Data("hi".utf8))
        let response = try await transport.send(request, timeout: .seconds(10)).get()
        #expect(response.status == 201)
        #expect(String(decoding: response.body, as: UTF8.self) == "got POST hi")
        #expect(response.headers["x-thing"] == "v")
        #expect(response.header("ETAG") == "\"7\"")
        #expect(server.requests.first?.headers["x-client"] == "c")
    }

    @Test("a body streaming far past the limit is cut off at once: the server sees the connection closed mid-body")
    func oversizedStreamStopsEarly() async throws {
        // 32 MiB in 64 KiB pieces every 20 ms: about 10 s at the server's pace, without Content-Length.
        let server = try LoopbackHTTPServer.started { _ in
            .slowStream(bytes: 32 << 20, pace: LoopbackPace(bytes: 64 << 10, interval: .milliseconds(20)))
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 256 << 10)
        let url = server.url("/huge")
        let (result, elapsed) = await timedGet(transport, url)
        #expect(result.failure == .bodyTooLarge(url: url, limit: 256 << 10, declared: nil))
        #expect(result.failure?.description == "the body from \(url.absoluteString) exceeds the limit of 262144 bytes")
        // Bounds with room for a loaded machine: the server's whole stream takes ~10 s and is 32 MiB.
        #expect(elapsed < .seconds(6), "the error came after \(elapsed), the server's whole stream takes ~10 s")
        // The client closed the connection: the server's next writes fail long before the end of the body.
        #expect(await server.wait(timeout: .seconds(30)) { $0.deliveries.count == 1 })
        let delivery = try #require(server.deliveries.first)
        #expect(!delivery.completed)
        #expect(delivery.sentBodyBytes < 16 << 20, "sent \(delivery.sentBodyBytes) of \(delivery.bodyBytes) bytes")
    }

    @Test("a Content-Length over the limit is refused before the body is read")
    func declaredLengthOverLimit() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            var response = LoopbackResponse.oversized(bytes: 8 << 20)
            response.pace = LoopbackPace(bytes: 64 << 10, interval: .milliseconds(20))
            return response
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        let url = server.url("/declared")
        let result = await get(transport, url)
        #expect(result.failure == .bodyTooLarge(url: url, limit: 1000, declared: 8 << 20))
        #expect(result.failure?.description.contains("is 8388608 bytes, more than the limit of 1000 bytes") == true)
        #expect(await server.wait(timeout: .seconds(30)) { $0.deliveries.count == 1 })
        #expect(server.deliveries.first?.completed == false)
    }

    @Test("a body of exactly the limit is accepted")
    func bodyAtTheLimit() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            var response = LoopbackResponse.oversized(bytes: 4096)
            response.chunked = true
            return response
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 4096)
        #expect(try await get(transport, server.url("/exact")).get().body.count == 4096)
    }

    @Test("a truncated body, a connection closed without a response and a refused connection are transport errors")
    func connectionFaults() async throws {
        let server = try LoopbackHTTPServer.started { request in
            if request.path == "/closed" { return LoopbackResponse(fault: .closeWithoutResponse) }
            return LoopbackResponse(
                status: 200, body: Data(repeating: 65, count: 100), fault: .truncatedBody(sentBytes: 10))
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        let truncatedURL = server.url("/truncated")
        let truncated = await get(transport, truncatedURL)
        #expect(truncated.failure == .truncated(truncatedURL))
        #expect(truncated.failure?.description.contains("truncated body") == true)

        let closed = await get(transport, server.url("/closed")).failure
        #expect(
            closed == .closedEarly(server.url("/closed")) || closed == .badResponse(server.url("/closed")),
            "\(String(describing: closed))")

        let refused = try LoopbackRefusedPort()
        let refusedURL = refused.baseURL.appendingPathComponent("x")
        let refusal = await get(transport, refusedURL).failure
        #expect(refusal == .refused(refusedURL))
        #expect(refusal?.description == "connection refused by 127.0.0.1:\(refused.port)")
    }

    @Test("the deadline is exact, well under Foundation's whole-second timeout")
    func exactDeadline() async throws {
        let server = try LoopbackHTTPServer.started { _ in LoopbackResponse(status: 200, delay: .seconds(5)) }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        let url = server.url("/slow")
        let (result, elapsed) = await timedGet(transport, url, timeout: .milliseconds(250))
        #expect(result.failure == .timedOut(after: .milliseconds(250), url: url))
        #expect(elapsed >= .milliseconds(240), "\(elapsed)")
        #expect(elapsed < .milliseconds(1_500), "\(elapsed)")  // Foundation's own backstop would be 2 s
    }

    @Test("cancelling the calling task ends the request at once; the transport stays usable")
    func cancellation() async throws {
        let server = try LoopbackHTTPServer.started { request in
            request.path == "/slow" ? LoopbackResponse(status: 200, delay: .seconds(5)) : .text("ok")
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        let url = server.url("/slow")
        let outcome = await offCooperativePool(timing: {
            await withTaskGroup(of: Result<RemoteHTTPResponse, RemoteHTTPError>.self) { group in
                group.addTask {
                    await transport.send(RemoteHTTPRequest(method: "GET", url: url), timeout: .seconds(30))
                }
                _ = await server.waitForRequests(count: 1, timeout: .seconds(10))
                let clock = ContinuousClock()
                let start = clock.now
                group.cancelAll()
                let result = await group.next()
                return (result, clock.now - start)
            }
        })
        #expect(server.requestCount == 1)
        #expect(outcome.0?.failure == .cancelled)
        #expect(outcome.1 < .seconds(2), "\(outcome.1)")  // the server answers after 5 s

        let alreadyCancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await transport.send(
                RemoteHTTPRequest(method: "GET", url: server.url("/fast")), timeout: .seconds(30))
        }
        #expect(await alreadyCancelled.value.failure == .cancelled)
        #expect(try await get(transport, server.url("/fast")).get().status == 200)
    }

    @Test("messages hide the value of a key query item (an API key); other URLs are shown as they are")
    func displayURL() throws {
        let secret = try #require(URL(string: "http://127.0.0.1:1/v1/p:fetch?key=secret&x=1"))
        #expect(RemoteHTTPError.displayURL(secret) == "http://127.0.0.1:1/v1/p:fetch?key=***&x=1")
        #expect(
            RemoteHTTPError.bodyTooLarge(url: secret, limit: 10, declared: nil).description
                == "the body from http://127.0.0.1:1/v1/p:fetch?key=***&x=1 exceeds the limit of 10 bytes")
        let plain = try #require(URL(string: "http://127.0.0.1:1/proxy?appName=moments&environment=production"))
        #expect(RemoteHTTPError.displayURL(plain) == plain.absoluteString)
    }

    @Test("concurrent requests on one transport each get their own answer")
    func concurrentRequests() async throws {
        let server = try LoopbackHTTPServer.started { request in .text(request.path) }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        let paths = (0..<8).map { "/r\($0)" }
        let bodies = await withTaskGroup(of: (String, String).self) { group in
            for path in paths {
                group.addTask {
                    let body =
                        (try? await transport.send(
                            RemoteHTTPRequest(method: "GET", url: server.url(path)),
                            timeout: .seconds(10)
                        ).get().body) ?? Data()
                    return (path, String(decoding: body, as: UTF8.self))
                }
            }
            return await group.reduce(into: [String: String]()) { $0[$1.0] = $1.1 }
        }
        #expect(bodies == Dictionary(uniqueKeysWithValues: paths.map { ($0, $0) }))
    }

    @Test("consecutive requests reuse the connection")
    func connectionReuse() async throws {
        let server = try LoopbackHTTPServer.started(keepAlive: true) { _ in .text("ok") }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        for _ in 0..<3 {
            #expect(try await get(transport, server.url("/poll")).get().status == 200)
        }
        #expect(server.requestCount == 3)
        #expect(server.acceptedConnectionCount == 1)
    }

    @Test("invalidate() closes the connection; a later request opens a new session")
    func invalidateClosesConnection() async throws {
        let server = try LoopbackHTTPServer.started(keepAlive: true) { _ in .text("ok") }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        #expect(try await get(transport, server.url("/a")).get().status == 200)
        #expect(server.openConnectionCount == 1)
        transport.invalidate()
        #expect(await server.wait(timeout: .seconds(30)) { $0.openConnectionCount == 0 })
        #expect(try await get(transport, server.url("/b")).get().status == 200)
        #expect(server.acceptedConnectionCount == 2)
    }

    @Test("releasing the transport invalidates its session and closes the connection")
    func deinitClosesConnection() async throws {
        let server = try LoopbackHTTPServer.started(keepAlive: true) { _ in .text("ok") }
        defer { server.stop() }
        var transport: RemoteHTTPTransport? = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1000)
        weak let released = transport
        if let transport {
            #expect(try await get(transport, server.url("/a")).get().status == 200)
        }
        #expect(server.openConnectionCount == 1)
        transport = nil
        #expect(released == nil)
        #expect(await server.wait(timeout: .seconds(30)) { $0.openConnectionCount == 0 })
    }
}

extension Result {
    /// The error, or `nil` for a success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
