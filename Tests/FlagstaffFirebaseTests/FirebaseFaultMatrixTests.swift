import FlagstaffFirebase
import FlagstaffRemote
import FlagstaffTestSupport
import Foundation
import Testing

/// Every fault keeps last-known-good values, reports the right status, backs off only for 429/500/503/504,
/// and never crashes.
@Suite("Firebase fault matrix")
struct FirebaseFaultMatrixTests {
    /// One row of the matrix: how the server misbehaves and what the client must report.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var fault: FakeFirebaseServer.Fault
        /// `nil` for "connection refused", which needs a different base URL.
        var expectedStatus: RemoteConfigFetchStatus
        var check: @Sendable (RemoteConfigProviderError) -> Bool

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "HTTP 429", fault: .status(429), expectedStatus: .throttled) { $0 == .httpStatus(429, message: "UNAVAILABLE: injected 429") },
        Row(name: "HTTP 500", fault: .status(500), expectedStatus: .throttled) { $0 == .httpStatus(500, message: "UNAVAILABLE: injected 500") },
        Row(name: "HTTP 503", fault: .status(503), expectedStatus: .throttled) { $0 == .httpStatus(503, message: "UNAVAILABLE: injected 503") },
        Row(name: "HTTP 504", fault: .status(504), expectedStatus: .throttled) { $0 == .httpStatus(504, message: "UNAVAILABLE: injected 504") },
        Row(name: "HTTP 400 is not backed off", fault: .status(400), expectedStatus: .failure) { $0.triggersBackoff == false && $0 == .httpStatus(400, message: "UNAVAILABLE: injected 400") },
        Row(name: "timeout", fault: .delay(seconds: 600), expectedStatus: .failure) { $0 == .timedOut(after: 5) },
        Row(name: "malformed JSON", fault: .malformedJSON, expectedStatus: .failure) {
            if case .invalidResponse(let message) = $0 { return message.hasPrefix("malformed JSON") }
            return false
        },
        Row(name: "truncated body", fault: .truncatedBody, expectedStatus: .failure) {
            if case .transport = $0 { return true }
            return false
        },
        Row(name: "oversized body", fault: .oversizedBody, expectedStatus: .failure) {
            if case .invalidResponse(let message) = $0 { return message.contains("exceeds the limit") }
            return false
        },
        Row(name: "wrong content type", fault: .wrongContentType, expectedStatus: .failure) {
            $0 == .invalidResponse("expected Content-Type application/json, got text/html; charset=utf-8")
        },
        Row(name: "closed without response", fault: .closeWithoutResponse, expectedStatus: .failure) {
            if case .transport = $0 { return true }
            return false
        },
        Row(name: "error body with 200", fault: .errorBody, expectedStatus: .failure) {
            $0 == .serverError(code: 400, status: "INVALID_ARGUMENT", message: "bad app id")
        },
    ]

    private func providerCause(of error: RemoteConfigError?) -> RemoteConfigProviderError? {
        switch error {
        case .fetchFailed(let cause): cause
        case .throttled(_, let cause): cause
        default: nil
        }
    }

    @Test("each fault keeps last-known-good values, reports its status and backs off as specified", arguments: rows)
    func fault(row: Row) async throws {
        let server = try FakeFirebaseServer()
        let clock = FixedClock()
        let directory = FirebaseTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // 5 s: no fetch that should succeed or fail fast may time out while a full parallel run loads both
        // cores (FoundationNetworking's event handling was seen more than 1 s late); the "timeout" row waits 5 s.
        let config = FirebaseTestSupport.config(server.baseURL, directory: directory, clock: clock, timeout: 5)
        try config.setDefaults(["isRoundedAvatar": false])
        await config.fetchAndActivate()
        #expect(config["isRoundedAvatar"] == RemoteConfigValue(string: "true", source: .remote))

        server.setFault(row.fault)
        let requestsBefore = server.requests.count
        let result = await config.fetchAndActivate()
        #expect(result.status == .error)
        #expect(result.activated == false)
        #expect(result.fetch.status == row.expectedStatus)
        #expect(config.lastFetchStatus == row.expectedStatus)
        let cause = try #require(providerCause(of: result.fetch.error))
        #expect(row.check(cause), "unexpected cause: \(cause)")
        #expect(config["isRoundedAvatar"] == RemoteConfigValue(string: "true", source: .remote), "last-known-good kept")
        #expect(config["welcomeText"].stringValue == "欢迎")
        #expect(config.lastFetchErrorMessage?.isEmpty == false)

        if row.expectedStatus == .throttled {
            #expect(result.fetch.throttledUntil == clock.now.addingTimeInterval(120))
            // Inside the window no request is made, even once the server is healthy again.
            server.setFault(.none)
            clock.advance(by: 119)
            let inside = await config.fetch()
            #expect(inside.status == .throttled)
            #expect(server.requests.count == requestsBefore + 1)
            // The backoff survives a restart.
            let restarted = FirebaseTestSupport.config(server.baseURL, directory: directory, clock: clock)
            #expect(await restarted.fetch().status == .throttled)
            #expect(server.requests.count == requestsBefore + 1)
            clock.advance(by: 1)
            #expect(await config.fetchAndActivate().status == .successFetchedFromRemote)
            #expect(config.throttledUntil == nil)
        } else {
            #expect(config.throttledUntil == nil)
            server.setFault(.none)
            #expect(await config.fetchAndActivate().status == .successFetchedFromRemote, "recovers at once")
        }
    }

    @Test("connection refused keeps persisted values and does not back off")
    func refused() async throws {
        let server = try FakeFirebaseServer()
        let directory = FirebaseTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        await FirebaseTestSupport.config(server.baseURL, directory: directory).fetchAndActivate()

        let refused = try LoopbackRefusedPort()
        let config = FirebaseTestSupport.config(refused.baseURL, directory: directory)
        let result = await config.fetchAndActivate()
        #expect(result.status == .error)
        #expect(config.lastFetchStatus == .failure)
        guard case .fetchFailed(.transport(let message)) = result.fetch.error else {
            Issue.record("expected a transport failure, got \(String(describing: result.fetch.error))")
            return
        }
        #expect(message.contains("refused"))
        #expect(config.throttledUntil == nil)
        #expect(config["isRoundedAvatar"] == RemoteConfigValue(string: "true", source: .remote))
    }

    @Test("a huge chunked body (no Content-Length) is cut off at the limit without buffering it all")
    func hugeChunkedBody() async throws {
        let server = try LoopbackHTTPServer.started { _ in
            var response = LoopbackResponse.oversized(bytes: 64 << 20)
            response.chunked = true
            return response
        }
        defer { server.stop() }
        let provider = FirebaseRemoteConfigProvider(options: FirebaseTestSupport.options(server.baseURL))
        // Buffering everything first would report "body of 67108864 bytes exceeds …" from the parser instead.
        await #expect(throws: RemoteConfigProviderError.invalidResponse("body exceeds the limit of 1048576 bytes")) {
            _ = try await provider.fetch(RemoteConfigFetchRequest(timeout: 60))
        }
    }

    @Test("backoff doubles across consecutive 503s and caps at 4 hours")
    func doubling() async throws {
        let server = try FakeFirebaseServer()
        server.setFault(.status(503))
        let clock = FixedClock()
        let config = FirebaseTestSupport.config(server.baseURL, clock: clock)
        var expected: TimeInterval = 120
        for _ in 0..<9 {
            let result = await config.fetch()
            #expect(result.throttledUntil == clock.now.addingTimeInterval(expected))
            clock.advance(by: expected)
            expected = min(expected * 2, 4 * 3600)
        }
        #expect(server.requests.count == 9)
        #expect(config.metadata.backoffInterval == 4 * 3600)
    }
}
