import Foundation
import Testing

@testable import FlagstaffRemote

/// `RemoteConfigError` and `RemoteConfigProviderError` are structs wrapping a private code (issue 26): made as the
/// cases were, described as before, asked through properties.
@Suite struct RemoteConfigErrorValueTests {
    @Test func aProviderErrorSaysWhatItIsThroughItsProperties() {
        let unavailable = RemoteConfigProviderError.httpStatus(503, message: "backend unavailable")
        #expect(unavailable.status == 503 && unavailable.message == "backend unavailable")
        #expect(unavailable.triggersBackoff && !unavailable.isTransport && !unavailable.isTimedOut)
        #expect(unavailable.description == "HTTP 503: backend unavailable")
        #expect(RemoteConfigProviderError.httpStatus(400, message: nil).description == "HTTP 400")
        #expect(!RemoteConfigProviderError.httpStatus(400, message: nil).triggersBackoff)
        #expect(unavailable == .httpStatus(503, message: "backend unavailable"))
        #expect(unavailable != .httpStatus(504, message: "backend unavailable"))

        let server = RemoteConfigProviderError.serverError(code: 400, status: "INVALID_ARGUMENT", message: "bad id")
        #expect(server.isServerError && server.serverErrorCode == 400 && server.serverErrorStatus == "INVALID_ARGUMENT")
        #expect(server.status == nil && server.description == "server error: code 400, INVALID_ARGUMENT, bad id")
        #expect(
            RemoteConfigProviderError.serverError(code: nil, status: nil, message: nil).description == "server error")

        let timeout = RemoteConfigProviderError.timedOut(after: 2.5)
        #expect(timeout.isTimedOut && timeout.timeout == 2.5 && timeout.message == nil)
        #expect(timeout.description == "timed out after 2.5 s")
        let transport = RemoteConfigProviderError.transport("connection refused by 127.0.0.1:1")
        #expect(transport.isTransport && transport.message == "connection refused by 127.0.0.1:1")
        #expect(transport.description == "connection failed: connection refused by 127.0.0.1:1")
        #expect(RemoteConfigProviderError.invalidResponse("x").isInvalidResponse)
        #expect(RemoteConfigProviderError.invalidResponse("x").description == "invalid response: x")
        #expect(RemoteConfigProviderError.missingCredentials("token").isMissingCredentials)
        #expect(RemoteConfigProviderError.missingCredentials("token").description == "missing credentials: token")
    }

    @Test func aConfigErrorSaysWhatItIsThroughItsProperties() {
        let cause = RemoteConfigProviderError.httpStatus(429, message: nil)
        let failed = RemoteConfigError.fetchFailed(cause)
        #expect(failed.isFetchFailed && failed.cause == cause && !failed.isThrottled)
        #expect(failed.description == "remote config fetch failed: HTTP 429")
        let until = Date(timeIntervalSince1970: 1_800_000_000)
        let throttled = RemoteConfigError.throttled(until: until, cause: cause)
        #expect(throttled.isThrottled && throttled.throttledUntil == until && throttled.cause == cause)
        #expect(throttled.description == "remote config fetch throttled until 2027-01-15T08:00:00Z after HTTP 429")
        #expect(RemoteConfigError.throttled(until: until, cause: nil).cause == nil)

        let file = RemoteConfigError.invalidDefaultsFile(path: "/d.json", reason: "not JSON")
        #expect(file.isInvalidDefaultsFile && file.path == "/d.json" && file.reason == "not JSON")
        #expect(file.description == "/d.json: not JSON")
        let key = RemoteConfigError.invalidDefault(key: "k", reason: "NSNull is not supported")
        #expect(key.isInvalidDefault && key.key == "k" && key.path == nil)
        #expect(key.description == "default for key \"k\": NSNull is not supported")
        let signal = RemoteConfigError.invalidCustomSignal(key: "s", reason: "too long")
        #expect(
            signal.isInvalidCustomSignal && signal.key == "s" && signal.description == "custom signal \"s\": too long")
        let decoding = RemoteConfigError.decodingFailed(type: "Int", value: "abc", reason: "not a number")
        #expect(decoding.isDecodingFailed && decoding.decodingType == "Int" && decoding.undecodedValue == "abc")
        #expect(decoding.description == "cannot decode \"abc\" as Int: not a number")
        let persistence = RemoteConfigError.persistence(path: "/p", reason: "EACCES")
        #expect(persistence.isPersistence && persistence.path == "/p" && persistence.description == "/p: EACCES")
        let realtime = RemoteConfigError.realtime("disabled by the service")
        #expect(realtime.isRealtime && realtime.reason == "disabled by the service" && realtime.cause == nil)
        #expect(realtime.description == "remote config realtime updates: disabled by the service")
        #expect(realtime == .realtime("disabled by the service") && realtime != .realtime("other"))
    }
}
