import Foundation
import Testing

@testable import FlagstaffRemote

/// `RemoteConfigProviderError` is a struct wrapping a private code (issue 26): made as the cases were, described
/// as before, asked through properties.
@Suite struct RemoteConfigProviderErrorTests {
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
}
