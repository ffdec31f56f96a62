import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite struct ContextDecodingTests {
    @Test func decodesTheSpecificationShape() throws {
        let context = try UnleashContext.decode(
            json: Data(
                #"""
                {"userId":"42","sessionId":"s","remoteAddress":"10.0.0.1","currentTime":"2022-01-29T13:00:00.000Z",
                 "environment":"prod","appName":"web","properties":{"country":"no","gone":null,"count":3,"beta":true},
                 "somethingElse":1}
                """#.utf8))
        #expect(
            context
                == UnleashContext(
                    userId: "42", sessionId: "s", remoteAddress: "10.0.0.1",
                    currentTime: RFC3339.parse("2022-01-29T13:00:00Z"),
                    environment: "prod", appName: "web", properties: ["country": "no", "count": "3", "beta": "true"]))
    }

    @Test func encodingRoundTrips() throws {
        let context = UnleashContext(
            userId: "1", currentTime: RFC3339.parse("2022-01-29T13:00:00.5Z"), properties: ["a": "b"])
        let data = try JSONEncoder().encode(context)
        #expect(try UnleashContext.decode(json: data) == context)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"currentTime\":\"2022-01-29T13:00:00.500Z\""))
        #expect(!text.contains("sessionId"))
    }

    @Test func badFieldsNameTheirPath() throws {
        #expect {
            try UnleashContext.decode(json: Data(#"{"currentTime":"tomorrow"}"#.utf8))
        } throws: { error in
            guard let error = error as? UnleashContextError else { return false }
            return error.path == "currentTime" && error.message.contains("RFC 3339")
        }
        #expect {
            try UnleashContext.decode(json: Data(#"{"properties":{"tags":["a"]}}"#.utf8))
        } throws: { error in
            (error as? UnleashContextError)?.path == "properties.tags"
        }
        #expect(throws: UnleashContextError.self) { try UnleashContext.decode(json: Data("[]".utf8)) }
        #expect(throws: UnleashContextError.self) { try UnleashContext.decode(json: Data("{".utf8)) }
    }

    /// As every other JSON Flagstaff reads (the store, manifests, `FLAGSTAFF_OVERRIDES`): a repeated name or a
    /// lone surrogate is refused, not settled by whichever copy a decoder keeps.
    @Test func repeatedNamesAndLoneSurrogatesAreRefused() throws {
        #expect {
            try UnleashContext.decode(json: Data(#"{"userId":"1","properties":{"a":"x","a":"y"}}"#.utf8))
        } throws: { error in
            let error = error as? UnleashContextError
            return error?.path == "properties" && error?.message == #"the name "a" appears more than once"#
        }
        #expect {
            try UnleashContext.decode(json: Data(#"{"userId":"1","userId":"2"}"#.utf8))
        } throws: { error in
            (error as? UnleashContextError)?.message == #"the name "userId" appears more than once"#
        }
        let surrogate = #expect(throws: UnleashContextError.self) {
            try UnleashContext.decode(json: Data(#"{"userId":"\ud800"}"#.utf8))
        }
        #expect(surrogate?.message.contains("surrogate") == true, "\(String(describing: surrogate))")
    }
}
