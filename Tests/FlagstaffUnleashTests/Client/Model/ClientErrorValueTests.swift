import Foundation
import Testing

@testable import FlagstaffUnleash

/// `UnleashClientError` is a struct wrapping a private code (issue 26): made as the cases were, described as
/// before, asked through properties.
@Suite struct ClientErrorValueTests {
    @Test func anUnleashErrorSaysWhatItIsThroughItsProperties() {
        let refused = UnleashClientError.httpStatus(401, url: "http://h/api/frontend")
        #expect(refused.status == 401 && refused.url == "http://h/api/frontend" && refused.message.isEmpty)
        #expect(refused.stopsPolling && !refused.triggersBackoff)
        #expect(refused.description == "HTTP 401 from http://h/api/frontend (check the client key); stopped")
        let missing = UnleashClientError.httpStatus(404, url: "u")
        #expect(missing.triggersBackoff && !missing.stopsPolling)
        #expect(missing.description == "HTTP 404 from u (check the URL); backing off")
        #expect(
            UnleashClientError.httpStatus(429, url: "u").description == "HTTP 429 from u (rate limited); backing off")
        #expect(UnleashClientError.httpStatus(503, url: "u").description == "HTTP 503 from u; backing off")
        #expect(UnleashClientError.httpStatus(418, url: "u").description == "HTTP 418 from u")
        #expect(!UnleashClientError.httpStatus(418, url: "u").triggersBackoff)
        #expect(refused == .httpStatus(401, url: "http://h/api/frontend") && refused != .httpStatus(403, url: "u"))

        let timeout = UnleashClientError.timedOut(after: .milliseconds(1500))
        #expect(timeout.isTimedOut && timeout.timeout == .milliseconds(1500) && timeout.status == nil)
        #expect(timeout.description.hasPrefix("timed out after "))
        let transport = UnleashClientError.transport("connection refused by 127.0.0.1:1")
        #expect(transport.isTransport && transport.message == "connection refused by 127.0.0.1:1")
        #expect(transport.description == "connection failed: connection refused by 127.0.0.1:1")
        let invalid = UnleashClientError.invalidResponse("body: $.toggles: expected an array")
        #expect(invalid.isInvalidResponse && !invalid.isTransport)
        #expect(invalid.description == "invalid response: body: $.toggles: expected an array")
        #expect(invalid.asPersistence == .persistence("body: $.toggles: expected an array"))
        #expect(UnleashClientError.persistence("p").isPersistence)
        #expect(UnleashClientError.persistence("p").description == "persistence: p")
        #expect(UnleashClientError.invalidBootstrap("b").isInvalidBootstrap)
        #expect(UnleashClientError.invalidBootstrap("b").description == "invalid bootstrap: b")
        #expect(UnleashClientError.invalidArgument("a").isInvalidArgument)
        #expect(UnleashClientError.invalidArgument("a").description == "invalid argument: a")
        #expect(Set([refused, .httpStatus(401, url: "http://h/api/frontend"), transport]).count == 2)
    }
}
