import FlagstaffFirebase
import FlagstaffRemote
import FlagstaffTestSupport
import FlagstaffTesting
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
        var expectedStatus: RemoteConfigFetchStatus
        var check: @Sendable (RemoteConfigProviderError) -> Bool

        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "HTTP 429", fault: .status(429), expectedStatus: .throttled) {
            $0 == .httpStatus(429, message: "UNAVAILABLE: injected 429")
        },
        Row(name: "HTTP 500", fault: .status(500), expectedStatus: .throttled) {
            $0 == .httpStatus(500, message: "UNAVAILABLE: injected 500")
        },
        Row(name: "HTTP 503", fault: .status(503), expectedStatus: .throttled) {
            $0 == .httpStatus(503, message: "UNAVAILABLE: injected 503")
        },
        Row(name: "HTTP 504", fault: .status(504), expectedStatus: .throttled) {
            $0 == .httpStatus(504, message: "UNAVAILABLE: injected 504")
        },
        Row(name: "HTTP 400 is not backed off", fault: .status(400), expectedStatus: .failure) {
            $0.triggersBackoff == false && $0 == .httpStatus(400, message: "UNAVAILABLE: injected 400")
        },
        Row(name: "timeout", fault: .delay(seconds: 600), expectedStatus: .failure) { $0 == .timedOut(after: 60) },
        Row(name: "malformed JSON", fault: .malformedJSON, expectedStatus: .failure) {
            $0.isInvalidResponse && $0.message?.hasPrefix("malformed JSON") == true
        },
        Row(name: "truncated body", fault: .truncatedBody, expectedStatus: .failure) {
            $0.isTransport
        },
        Row(name: "oversized body", fault: .oversizedBody, expectedStatus: .failure) {
            // The transport's words; the URL in them hides the API key.
            guard $0.isInvalidResponse, let message = $0.message else { return false }
            return message.contains("more than the limit of 1048576 bytes") && message.contains("?key=***")
                && !message.contains(FakeFirebaseServer.apiKey)
        },
        Row(name: "wrong content type", fault: .wrongContentType, expectedStatus: .failure) {
            $0 == .invalidResponse("expected Content-Type application/json, got text/html; charset=utf-8")
        },
        Row(name: "closed without response", fault: .closeWithoutResponse, expectedStatus: .failure) {
            $0.isTransport
        },
        Row(name: "error body with 200", fault: .errorBody, expectedStatus: .failure) {
            $0 == .serverError(code: 400, status: "INVALID_ARGUMENT", message: "bad app id")
        },
    ]

    private func providerCause(of error: RemoteConfigError?) -> RemoteConfigProviderError? {
        error?.cause
    }

    @Test("each fault keeps last-known-good values, reports its status and backs off as specified", arguments: rows)
    func fault(row: Row) async throws {
        let server = try FakeFirebaseServer()
        let clock = ManualClock()
        let directory = FirebaseTestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The 60 s fetch timeout is on the manual clock: a loaded machine cannot make a fetch time out, and the
        // "timeout" row reaches it at once by advancing the clock.
        let config = FirebaseTestSupport.config(server.baseURL, directory: directory, clock: clock)
        try config.setDefaults(["isRoundedAvatar": false])
        await config.fetchAndActivate()
        #expect(config["isRoundedAvatar"] == RemoteConfigValue(string: "true", source: .remote))

        server.setFault(row.fault)
        let requestsBefore = server.requests.count
        let fetch = Task { await config.fetchAndActivate() }
        if case .delay = row.fault {
            try await clock.waitForSleepers()  // the fetch's timeout is waiting
            clock.advance(by: .seconds(60))
        }
        let result = await fetch.value
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
            #expect(result.fetch.throttledUntil == clock.date.addingTimeInterval(120))
            // Inside the window no request is made, even once the server is healthy again.
            server.setFault(.none)
            clock.advance(by: .seconds(119))
            let inside = await config.fetch()
            #expect(inside.status == .throttled)
            #expect(server.requests.count == requestsBefore + 1)
            // The backoff survives a restart.
            let restarted = FirebaseTestSupport.config(server.baseURL, directory: directory, clock: clock)
            #expect(await restarted.fetch().status == .throttled)
            #expect(server.requests.count == requestsBefore + 1)
            clock.advance(by: .seconds(1))
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
        guard let error = result.fetch.error, error.isFetchFailed, let cause = error.cause, cause.isTransport,
            let message = cause.message
        else {
            Issue.record("expected a transport failure, got \(String(describing: result.fetch.error))")
            return
        }
        #expect(
            message == "connection refused by 127.0.0.1:\(refused.port)", "the shared transport's words, as Unleash")
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
        let url = server.baseURL.absoluteString + "/v1/projects/moments-test/namespaces/firebase:fetch?key=***"
        await #expect(
            throws: RemoteConfigProviderError.invalidResponse("the body from \(url) exceeds the limit of 1048576 bytes")
        ) {
            _ = try await provider.fetch(RemoteConfigFetchRequest(timeout: 60))
        }
    }

    @Test("backoff doubles across consecutive 503s and caps at 4 hours")
    func doubling() async throws {
        let server = try FakeFirebaseServer()
        server.setFault(.status(503))
        let clock = ManualClock()
        let config = FirebaseTestSupport.config(server.baseURL, clock: clock)
        var expected: TimeInterval = 120
        for _ in 0..<9 {
            let result = await config.fetch()
            #expect(result.throttledUntil == clock.date.addingTimeInterval(expected))
            clock.advance(by: .seconds(expected))
            expected = min(expected * 2, 4 * 3600)
        }
        #expect(server.requests.count == 9)
        #expect(config.metadata.backoffInterval == 4 * 3600)
    }
}
