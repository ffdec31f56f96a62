import Flagstaff
import Foundation
import Testing

@testable import FlagstaffRemote

/// The pure readers of the OFREP provider: server-sent events (WHATWG rules), bulk answers and refetch messages
/// (the shapes of open-feature/protocol's `service/openapi.yaml` and ADR-0008).
@Suite("OFREP readers")
struct OFREPParsingTests {
    @Test("SSE: CR, LF and CRLF end lines; comments are skipped; data lines join; id carries; retry needs digits")
    func serverSentEvents() {
        var parser = ServerSentEventParser()
        var events = parser.feed(Array(": keep-alive\r\nid: 7\rdata: {\"a\":\ndata: 1}\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "{\"a\":\n1}", lastEventID: "7")])
        events = parser.feed(Array("event: other\ndata:x\n\nretry: 15x\nretry: 2500\n".utf8))
        #expect(events == [ServerSentEvent(type: "other", data: "x", lastEventID: "7")])
        #expect(parser.retryMilliseconds == 2500)
        // No data: no event. An event split across reads is dispatched once complete.
        #expect(parser.feed(Array("id: 8\n\ndata: y".utf8)).isEmpty)
        #expect(parser.lastEventID == "8")
        #expect(parser.feed(Array("\r".utf8)).isEmpty)
        #expect(parser.feed(Array("\n\n".utf8)) == [ServerSentEvent(data: "y", lastEventID: "8")])
    }

    @Test("SSE: a leading byte-order mark is dropped; an id with NUL is ignored; an endless line is cut, not kept")
    func serverSentEventEdges() {
        var parser = ServerSentEventParser(lastEventID: "3")
        #expect(
            parser.feed([0xEF, 0xBB, 0xBF] + Array("data: a\nid: x\u{0}y\n\n".utf8)) == [
                ServerSentEvent(data: "a", lastEventID: "3")
            ])
        var long = ServerSentEventParser()
        let huge = [UInt8](repeating: UInt8(ascii: "z"), count: ServerSentEventParser.maximumLineBytes + 10)
        let events = long.feed(Array("data: ".utf8) + huge + Array("\n\n".utf8))
        #expect(events.count == 1)
        #expect(events.first?.data.utf8.count == ServerSentEventParser.maximumLineBytes - 6)
        #expect(events.first?.isTruncated == true)
        // A limit of the caller's; the next event is whole again.
        var small = ServerSentEventParser(lineLimit: 16)
        let cut = small.feed(Array("data: 0123456789abcdef\n\ndata: short\n\n".utf8))
        #expect(cut == [ServerSentEvent(data: "0123456789", isTruncated: true), ServerSentEvent(data: "short")])
    }

    @Test("SSE: an event whose data lines add up past the limit is dropped and counted; the next one is read")
    func serverSentEventTooLarge() {
        var parser = ServerSentEventParser()
        let line = Array("data: ".utf8) + [UInt8](repeating: UInt8(ascii: "z"), count: 1 << 16) + [10]
        var events: [ServerSentEvent] = []
        for _ in 0..<(ServerSentEventParser.maximumEventBytes / (1 << 16) + 2) { events += parser.feed(line) }
        events += parser.feed(Array("\ndata: next\n\n".utf8))
        #expect(events == [ServerSentEvent(data: "next")])
        #expect(parser.droppedEvents == 1)
    }

    @Test("bulk answer: typed values, code defaults, per-flag errors, sse streams only, url or endpoint")
    func bulkAnswer() throws {
        let body = """
            {"flags":[{"key":"b","value":true,"reason":"STATIC","variant":"on"},{"key":"n","value":20},
            {"key":"d","value":0.5},{"key":"s","value":"dark"},{"key":"o","value":{"z":1,"a":[1,2]}},
            {"key":"c","reason":"DEFAULT"},{"key":"e","errorCode":"PARSE_ERROR","errorDetails":"bad"}],
            "eventStreams":[{"type":"sse","url":"http://h:1/events?channel=x"},{"type":"websocket","url":"ws://h"},
            {"type":"sse","endpoint":{"requestUri":"/ofrep/v1/events"}},
            {"type":"sse","endpoint":{"origin":"https://other:9","requestUri":"/e"}},
            {"type":"sse","url":"/relative"}],"metadata":{"version":"v1"},"future":1}
            """
        let base = try #require(URL(string: "http://127.0.0.1:4242/prefix"))
        let answer = try OFREPBulkAnswer.read(Data(body.utf8), baseURL: base)
        #expect(answer.flags["b"]?.value?.json == "true")
        #expect(answer.flags["b"]?.variant == "on")
        #expect(answer.flags["n"]?.value?.json == "20")
        #expect(answer.flags["d"]?.value?.json == "0.5")
        #expect(answer.flags["s"]?.value == OverrideValue(string: "dark"))
        #expect(answer.flags["o"]?.value?.json == #"{"a":[1,2],"z":1}"#)
        #expect(answer.flags["c"]?.value == nil)
        #expect(answer.flags["e"]?.errorCode == "PARSE_ERROR")
        #expect(
            answer.eventStreams.map(\.absoluteString) == [
                "http://h:1/events?channel=x", "http://127.0.0.1:4242/ofrep/v1/events", "https://other:9/e",
                "http://127.0.0.1:4242/relative",
            ])
        #expect(answer.inactivityDelay == nil)
    }

    @Test("bulk answer: inactivityDelaySec is the first sse stream's (the one followed), a whole number ≥ 1")
    func inactivityDelay() throws {
        let base = try #require(URL(string: "http://127.0.0.1:4242"))
        func delay(_ streams: String) throws -> Duration? {
            try OFREPBulkAnswer.read(Data(#"{"flags":[],"eventStreams":[\#(streams)]}"#.utf8), baseURL: base)
                .inactivityDelay
        }
        #expect(try delay(#"{"type":"sse","url":"/a","inactivityDelaySec":120}"#) == .seconds(120))
        #expect(
            try delay(
                #"{"type":"sse","url":"/a","inactivityDelaySec":90},{"type":"sse","url":"/b","inactivityDelaySec":30}"#
            ) == .seconds(90))
        #expect(try delay(#"{"type":"websocket","url":"ws://h","inactivityDelaySec":5}"#) == nil)
        #expect(
            try delay(#"{"type":"websocket","url":"ws://h","inactivityDelaySec":5},{"type":"sse","url":"/a"}"#) == nil,
            "the followed stream says nothing: 120 s, not another stream's")
        for ignored in ["0", "-3", "1.5", #""60""#, "null"] {
            #expect(try delay(#"{"type":"sse","url":"/a","inactivityDelaySec":\#(ignored)}"#) == nil, "\(ignored)")
        }
        #expect(try delay(#"{"type":"sse","url":"/a","inactivityDelaySec":1e9}"#) == .seconds(86_400))
    }

    @Test("bulk answer: not JSON, not an object, no flags, a flag without a key: a message naming what is wrong")
    func badBulkAnswers() throws {
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        for (body, message) in [
            ("{", "the body is not JSON"), ("[]", "the body is not a JSON object"),
            (#"{"flag":[]}"#, #""flags" is missing or not an array"#),
            (#"{"flags":[{"value":1}]}"#, #"flags[0] is not an object with a string "key""#),
            (#"{"flags":[],"eventStreams":{}}"#, #""eventStreams" is not an array"#),
        ] {
            #expect(throws: OFREPAnswerError.self) { try OFREPBulkAnswer.read(Data(body.utf8), baseURL: base) }
            do {
                _ = try OFREPBulkAnswer.read(Data(body.utf8), baseURL: base)
            } catch {
                #expect(error.description.hasPrefix(message), "\(body)")
            }
        }
    }

    @Test("bulk answer: whole numbers keep every digit; a repeated name anywhere is refused and named")
    func bulkAnswerExactness() throws {
        let base = try #require(URL(string: "http://127.0.0.1:1"))
        let answer = try OFREPBulkAnswer.read(
            Data(
                #"{"flags":[{"key":"big","value":9007199254740993},{"key":"o","value":{"n":-9007199254740993}}]}"#.utf8),
            baseURL: base)
        #expect(answer.flags["big"]?.value?.json == "9007199254740993")
        #expect(answer.flags["o"]?.value?.json == #"{"n":-9007199254740993}"#)
        for body in [
            #"{"flags":[{"key":"a","key":"b"}]}"#, #"{"flags":[{"key":"a","metadata":{"s":1,"s":2}}]}"#,
            #"{"flags":[{"key":"a","x":1,"x":1}]}"#, #"{"flags":[],"flags":[]}"#, #"{"flags":[],"m":{},"m":{}}"#,
            #"{"flags":[{"key":"a","value":{"v":1,"v":1}}]}"#,
        ] {
            do {
                _ = try OFREPBulkAnswer.read(Data(body.utf8), baseURL: base)
                Issue.record("accepted \(body)")
            } catch {
                #expect(error.description.hasPrefix("the body is not JSON (the name"), "\(body)")
            }
        }
    }

    @Test("bulk answer: the one-pass reader gives what reading the whole tree first gives")
    func bulkAnswerMatchesTheTree() throws {
        let base = try #require(URL(string: "http://127.0.0.1:4242/p/"))
        let bodies = [
            #"{"flags":[{"key":"a","value":true,"reason":"STATIC","variant":"on","metadata":{"source":"default","type":"boolean"}}]}"#,
            #"{"flags":[{"key":"s","value":"on"},{"key":"t","value":"caf\u00e9 \"x\""},{"key":"n","value":null}]}"#,
            #"{"flags":[{"key":"d","value":1.50},{"key":"e","value":1e2},{"key":"z","value":-0},{"key":"f","value":[1,{"b":2,"a":[]}]}]}"#,
            #"{"flags":[{"key":"r","reason":7,"variant":null,"errorCode":"X","errorDetails":{"a":1}}],"eventStreams":[]}"#,
            #"{"flags":[{"key":"a","value":1},{"key":"a","value":2}],"other":[{"deep":{"x":[null]}}]}"#,
            #"{"\u0066lags":[{"k\u0065y":"esc","value":false}]}"#,
            #"{"eventStreams":[{"type":"sse","url":"/e"}],"flags":[{"key":"late"}]}"#,
            "{\n  \"flags\" : [ { \"key\" : \"w\" , \"value\" : { } } ]\n}",
            #"{"flags":[1]}"#, #"{"flags":[{"key":1}]}"#, #"{"flags":{}}"#, #"{"flags":[],"eventStreams":3}"#,
            #"{"eventStreams":3}"#, #"{"flags":[{"value":1},"x"],"eventStreams":{}}"#, "3", "[]", "",
            #"{"flags":[}"#, #"{"flags":[{"key":"a","value":tru}]}"#,
            #"{"flags":[{"key":"m","value":1,"metadata":{"type":"integer","source":"override"}}]}"#,
            #"{"flags":[{"key":"m","value":1,"metadata":{"source":7,"x":{"y":[1]}}},{"key":"n","metadata":[]}]}"#,
        ]
        for body in bodies {
            let data = Data(body.utf8)
            let expected = Result { () throws(OFREPAnswerError) in try TreeReading.read(data, baseURL: base) }
            let actual = Result { () throws(OFREPAnswerError) in try OFREPBulkAnswer.read(data, baseURL: base) }
            switch (expected, actual) {
            case (.success(let tree), .success(let read)): #expect(read == tree, "\(body)")
            case (.failure(let tree), .failure(let read)):
                #expect(read == tree, "\(body)")
            default: Issue.record("\(body): \(actual) where the tree gives \(expected)")
            }
        }
    }

    @Test("refetch messages: etag and lastModified (seconds or a date); other types and non-JSON are ignored")
    func refetchMessages() {
        #expect(
            OFREPRefetch.from(eventData: #"{"type":"refetchEvaluation","etag":"\"abc\"","lastModified":1771622898}"#)
                == OFREPRefetch(etag: "\"abc\"", lastModified: "1771622898"))
        #expect(
            OFREPRefetch.from(eventData: #"{"type":"refetchEvaluation","lastModified":"2026-02-20T21:28:18Z"}"#)
                == OFREPRefetch(lastModified: "2026-02-20T21:28:18Z"))
        #expect(OFREPRefetch.from(eventData: #"{"type":"refetchEvaluation"}"#) == OFREPRefetch())
        #expect(OFREPRefetch.from(eventData: #"{"type":"fullConfig"}"#) == nil)
        #expect(OFREPRefetch.from(eventData: "refetchEvaluation") == nil)
    }

    @Test("Retry-After: seconds, clamped; garbage is ignored")
    func retryAfter() {
        #expect(OFREPProvider.retryAfter("5") == .seconds(5))
        #expect(OFREPProvider.retryAfter("99999") == .seconds(3600))
        #expect(OFREPProvider.retryAfter("soon") == nil)
        #expect(OFREPProvider.retryAfter(nil) == nil)
    }
}

/// The bulk answer as it was read before the one-pass reader: the whole body as a tree, then its shape.
private enum TreeReading {
    static func read(_ data: Data, baseURL: URL) throws(OFREPAnswerError) -> OFREPBulkAnswer {
        let root: JSONValue
        do {
            root = try JSONValue.read(data)
        } catch {
            throw OFREPAnswerError("the body is not JSON\(error.detail.map { " (\($0))" } ?? "")")
        }
        guard case .object = root else { throw OFREPAnswerError("the body is not a JSON object") }
        guard case .array(let list) = root["flags"] else {
            throw OFREPAnswerError("\"flags\" is missing or not an array")
        }
        var flags: [String: OFREPFlag] = [:]
        for (index, entry) in list.enumerated() {
            guard case .object = entry, let key = entry["key"]?.stringValue else {
                throw OFREPAnswerError("flags[\(index)] is not an object with a string \"key\"")
            }
            let value = entry["value"].flatMap { $0 == .null ? nil : $0.overrideValue }
            flags[key] = OFREPFlag(
                key: key, value: value, reason: entry["reason"]?.stringValue,
                variant: entry["variant"]?.stringValue, errorCode: entry["errorCode"]?.stringValue,
                errorDetails: entry["errorDetails"]?.stringValue, source: entry["metadata"]?["source"]?.stringValue)
        }
        var streams: [URL] = []
        var inactivityDelay: Duration?
        if let offered = root["eventStreams"] {
            guard case .array(let array) = offered else { throw OFREPAnswerError("\"eventStreams\" is not an array") }
            for stream in array where stream["type"]?.stringValue == "sse" {
                guard let url = OFREPBulkAnswer.streamURL(stream, baseURL: baseURL) else { continue }
                if !streams.contains(url) { streams.append(url) }
                if let delay = OFREPBulkAnswer.inactivitySeconds(stream["inactivityDelaySec"]) {
                    inactivityDelay = min(inactivityDelay ?? .seconds(delay), .seconds(delay))
                }
            }
        }
        return OFREPBulkAnswer(flags: flags, eventStreams: streams, inactivityDelay: inactivityDelay)
    }
}
