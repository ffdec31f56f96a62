import Foundation
import Testing

@testable import FlagstaffRemote

/// `RemoteConfigError` is a struct wrapping a private code (issue 26): made as the cases were, described as before,
/// asked through properties (`RemoteConfigProviderError`: Provider/RemoteConfigProviderErrorTests.swift).
@Suite struct RemoteConfigErrorValueTests {
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
