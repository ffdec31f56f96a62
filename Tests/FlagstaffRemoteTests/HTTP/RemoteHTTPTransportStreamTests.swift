import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffRemote

/// Event streams on the request transport's session (`RemoteHTTPTransport.openStream`), against the loopback server.
@Suite("Remote HTTP transport: streams")
struct RemoteHTTPTransportStreamTests {
    private func events(_ stream: AsyncStream<RemoteHTTPStreamEvent>) async -> [RemoteHTTPStreamEvent] {
        var events: [RemoteHTTPStreamEvent] = []
        for await event in stream { events.append(event) }
        return events
    }

    @Test("the events of one exchange arrive in order: response, body, end")
    func eventsInOrder() async throws {
        let server = try LoopbackHTTPServer.started { _ in .text("hello", headers: ["X-Thing": "v"]) }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 16)
        let events = await events(
            transport.openStream(RemoteHTTPRequest(method: "GET", url: server.url("/s")), idleTimeout: .seconds(10)))
        guard case .response(let status, let headers) = events.first else {
            Issue.record("the first event is not the response: \(events)")
            return
        }
        #expect(status == 200)
        #expect(headers["x-thing"] == "v")
        let body = events.reduce(into: Data()) { if case .data(let piece) = $1 { $0.append(piece) } }
        #expect(String(decoding: body, as: UTF8.self) == "hello")
        #expect(events.last == .finished(nil))
    }

    @Test("a stream opened after a request takes that request's idle connection")
    func reusesTheConnection() async throws {
        let server = try LoopbackHTTPServer.started(keepAlive: true) { _ in .text("ok") }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1 << 10)
        defer { transport.invalidate() }
        let answer = await transport.send(
            RemoteHTTPRequest(method: "POST", url: server.url("/evaluate"), body: Data("{}".utf8)),
            timeout: .seconds(10))
        #expect((try? answer.get())?.status == 200)
        let events = await events(
            transport.openStream(
                RemoteHTTPRequest(method: "GET", url: server.url("/events")), idleTimeout: .seconds(10)))
        #expect(events.last == .finished(nil))
        #expect(server.requests.map(\.method) == ["POST", "GET"], "no warm-up: the fetch's connection is idle")
        #expect(server.requests.map(\.connection) == [1, 1])
    }

    @Test("a stream with no idle connection rides the connection of a warm-up OPTIONS request sent first")
    func warmsUpAConnection() async throws {
        let server = try LoopbackHTTPServer.started(keepAlive: true) { request in
            request.method == "OPTIONS" ? .status(204) : .text("data: x\n\n")
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 0)
        defer { transport.invalidate() }
        let stream = RemoteHTTPRequest(
            method: "POST", url: server.url("/events?key=k"), headers: [("Authorization", "secret")],
            body: Data("{}".utf8))
        let events = await events(transport.openStream(stream, idleTimeout: .seconds(10)))
        #expect(events.last == .finished(nil))
        let requests = server.requests
        #expect(requests.map(\.method) == ["OPTIONS", "POST"])
        #expect(requests.map(\.target) == ["/events?key=k", "/events?key=k"])
        #expect(requests.map(\.connection) == [1, 1], "the stream arrives on the warm-up's connection")
        #expect(requests.first?.headers["Authorization"] == nil, "the warm-up carries none of the stream's headers")
        #expect(requests.last?.body == Data("{}".utf8))
    }

    @Test("a stream that ended leaves no idle connection: the next one warms one up again")
    func warmsUpAfterAnEnd() async throws {
        let server = try LoopbackHTTPServer.started(keepAlive: true) { request in
            request.method == "OPTIONS" ? .status(204) : .text("ok")
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1 << 10)
        defer { transport.invalidate() }
        let answer = await transport.send(
            RemoteHTTPRequest(method: "GET", url: server.url("/evaluate")), timeout: .seconds(10))
        #expect((try? answer.get())?.status == 200)
        let request = RemoteHTTPRequest(method: "GET", url: server.url("/events"))
        #expect(await events(transport.openStream(request, idleTimeout: .seconds(10))).last == .finished(nil))
        #expect(await events(transport.openStream(request, idleTimeout: .seconds(10))).last == .finished(nil))
        #expect(server.requests.map(\.method) == ["GET", "GET", "OPTIONS", "GET"])
        #expect(server.requests.map(\.connection) == [1, 1, 1, 1])
    }

    @Test(
        "a stream with a body closed unanswered on its reused connection ends as timed out after 10 s, not its idle timeout"
    )
    func unansweredBodyStream() async throws {
        // libcurl sends the request again on a new connection, and FoundationNetworking sends it without its body:
        // the server waits for the body, the client for an answer.
        let server = try LoopbackHTTPServer.started(keepAlive: true) { request in
            request.method == "OPTIONS" ? .status(204) : LoopbackResponse(fault: .closeWithoutResponse)
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 0)
        defer { transport.invalidate() }
        let url = server.url("/events")
        let events = await events(
            transport.openStream(
                RemoteHTTPRequest(method: "POST", url: url, body: Data("{}".utf8)), idleTimeout: .seconds(300)))
        #expect(events == [.finished(.timedOut(after: RemoteHTTPTransport.warmUpTimeout, url: url))])
    }

    @Test("a refused or failed warm-up still opens the stream, which reports its own answer")
    func warmUpFailure() async throws {
        let server = try LoopbackHTTPServer.started(keepAlive: true) { request in
            request.method == "OPTIONS"
                ? .text(String(repeating: "x", count: RemoteHTTPTransport.warmUpBodyLimit + 1), status: 405)
                : .status(503)
        }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 0)
        defer { transport.invalidate() }
        let events = await events(
            transport.openStream(
                RemoteHTTPRequest(method: "GET", url: server.url("/events")), idleTimeout: .seconds(10)))
        #expect(events.first.map { if case .response(503, _) = $0 { true } else { false } } == true)
        #expect(server.requests.map(\.method) == ["OPTIONS", "GET"])
    }

    @Test("a refused connection ends the stream with an error; a request after it still works")
    func refused() async throws {
        let refused = try LoopbackRefusedPort()
        let url = refused.baseURL.appendingPathComponent("events")
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1 << 10)
        let events = await events(
            transport.openStream(RemoteHTTPRequest(method: "GET", url: url), idleTimeout: .seconds(10)))
        #expect(events == [.finished(.refused(url))])
        let server = try LoopbackHTTPServer.started { _ in .text("ok") }
        defer { server.stop() }
        let answer = await transport.send(
            RemoteHTTPRequest(method: "GET", url: server.url("/a")), timeout: .seconds(10))
        #expect((try? answer.get())?.status == 200)
    }

    @Test("abandoning streams while their exchanges complete neither traps nor leaves connections open")
    func abandonWhileCompleting() async throws {
        let server = try LoopbackHTTPServer.started { _ in .text(String(repeating: "x", count: 2048)) }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "test", maximumResponseBytes: 1 << 10)
        let request = RemoteHTTPRequest(method: "GET", url: server.url("/s"))
        let lanes = 8
        let rounds = 50
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<lanes {
                group.addTask {
                    for round in 0..<rounds {
                        for await event in transport.openStream(request, idleTimeout: .seconds(10)) {
                            if case .response = event, round.isMultiple(of: 2) { break }
                            if case .data = event { break }
                        }
                    }
                }
            }
        }
        #expect(
            await server.wait(timeout: .seconds(30)) {
                $0.requests.filter { $0.method == "GET" }.count == lanes * rounds && $0.openConnectionCount == 0
            })
    }
}
