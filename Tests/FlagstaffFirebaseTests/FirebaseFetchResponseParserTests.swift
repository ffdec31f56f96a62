import FlagstaffFirebase
import FlagstaffRemote
import Foundation
import Testing

@Suite("FirebaseFetchResponseParser")
struct FirebaseFetchResponseParserTests {
    private let json = ["Content-Type": "application/json; charset=UTF-8"]

    private func parse(
        _ body: String, status: Int = 200, headers: [String: String]? = nil,
        limit: Int = 1 << 20
    ) throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse {
        try FirebaseFetchResponseParser.parse(
            status: status, headers: headers ?? json, body: Data(body.utf8),
            maximumBytes: limit)
    }

    @Test("response states map like the Apple SDK")
    func states() throws {
        let update = try parse(
            #"{"state":"UPDATE","entries":{"a":"1","b":"x"},"templateVersion":"12"}"#,
            headers: ["content-type": "application/json", "ETag": "\"e\""])
        #expect(
            update
                == RemoteConfigFetchResponse(
                    content: .entries(["a": "1", "b": "x"]), templateVersion: "12", eTag: "\"e\""))
        #expect(try parse(#"{"state":"UPDATE","templateVersion":5}"#).content == .entries([:]))
        #expect(try parse(#"{"state":"UPDATE","templateVersion":5}"#).templateVersion == "5")
        #expect(try parse(#"{"state":"NO_CHANGE"}"#).content == .unchanged)
        #expect(try parse(#"{"state":"EMPTY_CONFIG"}"#).content == .empty)
        #expect(try parse(#"{"state":"NO_TEMPLATE"}"#).content == .noTemplate)
        #expect(try parse(#"{"state":"INSTANCE_STATE_UNSPECIFIED"}"#).content == .unchanged)
        #expect(try parse(#"{}"#).content == .unchanged)
        #expect(try parse("").content == .unchanged)
        #expect(
            try parse("", status: 304, headers: ["etag": "x"])
                == RemoteConfigFetchResponse(content: .unchanged, eTag: "x"))
    }

    @Test("errors are precise")
    func errors() {
        #expect(
            throws: RemoteConfigProviderError.serverError(
                code: 403, status: "PERMISSION_DENIED", message: "API key not valid")
        ) {
            try parse(#"{"error":{"code":403,"status":"PERMISSION_DENIED","message":"API key not valid"}}"#)
        }
        #expect(throws: RemoteConfigProviderError.httpStatus(503, message: "UNAVAILABLE: try later")) {
            try parse(#"{"error":{"code":503,"status":"UNAVAILABLE","message":"try later"}}"#, status: 503)
        }
        #expect(throws: RemoteConfigProviderError.httpStatus(500, message: nil)) {
            try parse("<html>oops</html>", status: 500)
        }
        #expect(throws: RemoteConfigProviderError.self) { try parse("{not json") }
        #expect(throws: RemoteConfigProviderError.self) { try parse("[1]") }
        #expect(throws: RemoteConfigProviderError.self) { try parse(#"{"state":"UPDATE","entries":{"a":{"x":1}}}"#) }
        #expect(
            throws: RemoteConfigProviderError.invalidResponse("expected Content-Type application/json, got text/html")
        ) {
            try parse(#"{"state":"NO_CHANGE"}"#, headers: ["Content-Type": "text/html"])
        }
        #expect(throws: RemoteConfigProviderError.invalidResponse("body of 21 bytes exceeds the limit of 10 bytes")) {
            try parse(#"{"state":"NO_CHANGE"}"#, limit: 10)
        }
    }

    /// The body is read by the package's one reader: a repeated name is refused, not settled by whichever copy a
    /// parser keeps.
    @Test("a repeated entry is malformed JSON naming the entry")
    func repeatedEntry() throws {
        let error = #expect(throws: RemoteConfigProviderError.self) {
            try parse(#"{"state":"UPDATE","entries":{"a":"1","a":"2"}}"#)
        }
        #expect(error?.description.contains("malformed JSON") == true, "\(String(describing: error))")
        #expect(error?.description.contains(#""a""#) == true, "\(String(describing: error))")
    }

    @Test("a syntax error after a bad entry is reported as the syntax error, with its line and column")
    func syntaxErrorWins() throws {
        let error = #expect(throws: RemoteConfigProviderError.self) {
            try parse("{\"state\":\"UPDATE\",\"entries\":{\"a\":[1]},\n\"x\":tru}")
        }
        #expect(error?.description.contains("malformed JSON: line 2, column") == true, "\(String(describing: error))")
    }
}
