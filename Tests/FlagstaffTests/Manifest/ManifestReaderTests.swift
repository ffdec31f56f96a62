import Foundation
import Testing

@testable import Flagstaff

/// `RegistryManifest.decode` (our reader) against `JSONDecoder` on valid manifests, and its errors on bad ones.
@Suite struct ManifestReaderTests {
    static let validManifests: [String] = [
        #"{"name":"Tiny"}"#,
        #"{"name":"x","flags":[],"groups":[],"remote":null}"#,
        #"{"name":"x","flags":null,"groups":null}"#,
        #"  {"name" : "Spaced" ,"flags" : [ { "key" : "a" , "default" : true } ] }  "# + "\n\t\r\n",
        #"{"name":"Esc","flags":[{"key":"a\u002eb","label":"Esc \" \\ \/ \b \f \n \r \t \u00e9 \u65E5 \ud83d\ude00 \u0000","description":"tab\there"}]}"#,
        #"{"name":"Unicode é 日本 😀 \#u{2028}","flags":[{"key":"ключ.é","label":"Ünïcödé","description":"😀😀"}]}"#,
        #"{"n\u0061me":"escaped field names","fl\u0061gs":[{"\u006bey":"k"}]}"#,
        #"""
        {"name": "All kinds", "flags": [
          {"key": "s", "kind": "static", "default": true, "requiresRestart": true},
          {"key": "d", "kind": "dynamic", "label": null, "description": null},
          {"key": "r", "kind": "remote", "remoteKey": "remote_r", "default": null, "requiresRestart": null},
          {"key": "b", "kind": "buildTarget", "enabledIn": ["debug", "internal", "production"]},
          {"key": "n", "kind": null, "enabledIn": null, "remoteKey": null},
          {"key": "e", "kind": "buildTarget", "enabledIn": []}
        ]}
        """#,
        #"""
        {"name": "Nested", "groups": [
          {"key": "a", "label": "A", "description": "First", "flags": [{"key": "a.x"}], "groups": [
            {"key": "b", "groups": [{"key": "c", "flags": [{"key": "a.b.c.y", "default": true}], "groups": null}]}]},
          {"key": "d", "flags": null, "label": null}
        ]}
        """#,
        #"""
        {"name": "Remote", "remote": {"provider": "firebase", "projectID": "p", "apiKey": "AIza", "appID": "1:42:ios:abc",
          "baseURL": "https://example.com", "namespace": null, "minimumFetchInterval": 3600,
          "defaults": {"moments.isRoundedAvatar": true, "maxItems": 20, "ratio": -2.5e-3, "zero": -0,
                       "big": 12345678901234567890, "tiny": 5e-324, "title": "Hi \u00e9", "huge": 1.7976931348623157e308}}}
        """#,
        #"{"name":"x","remote":{"provider":"unleash","minimumFetchInterval":null,"defaults":null}}"#,
    ]

    @Test(arguments: validManifests)
    func validManifestsDecodeAsWithJSONDecoder(json: String) throws {
        let data = Data(json.utf8)
        let theirs = try JSONDecoder().decode(RegistryManifest.self, from: data)
        let ours = try RegistryManifest.decode(data)
        #expect(ours == theirs)
    }

    @Test func escapesDecodeAsExpected() throws {
        let escaped = try RegistryManifest.decode(Data(Self.validManifests[4].utf8))
        #expect(escaped.flags.first?.label == "Esc \" \\ / \u{8} \u{C} \n \r \t é 日 😀 \u{0}")
        #expect(escaped.flags.first?.key == "a.b")
    }

    @Test func byteOrderMarksAndOtherUnicodeEncodingsAreRead() throws {
        let json = #"{"name":"Bom é","flags":[{"key":"k😀"}]}"#
        let expected = try RegistryManifest.decode(Data(json.utf8))
        #expect(try RegistryManifest.decode(Data([0xEF, 0xBB, 0xBF] + Array(json.utf8))) == expected)
        for encoding in [
            String.Encoding.utf16, .utf16LittleEndian, .utf16BigEndian, .utf32, .utf32LittleEndian, .utf32BigEndian,
        ] {
            let data = try #require(json.data(using: encoding))
            #expect(try RegistryManifest.decode(data) == expected, "\(encoding)")
            if encoding != .utf32 {  // JSONDecoder does not take UTF-32 with a byte-order mark
                #expect(try JSONDecoder().decode(RegistryManifest.self, from: data) == expected, "\(encoding)")
            }
        }
        let error = #expect(throws: ManifestError.self) { try RegistryManifest.decode(Data([0x7B, 0x00, 0x22])) }
        #expect(error?.message.contains("UTF-16") == true)
    }

    @Test func nestingUpToTheLimitIsReadAndDeeperIsAnError() throws {
        func nested(_ levels: Int) -> String {
            #"{"name":"deep","groups":"# + String(repeating: #"[{"key":"g","groups":"#, count: levels) + "[]"
                + String(repeating: "}]", count: levels) + "}"
        }
        // The manifest object, then an array and an object per group, then the innermost `[]`: 2 × 255 + 2 = 512.
        let deepest = Data(nested(255).utf8)
        #expect(try RegistryManifest.decode(deepest) == JSONDecoder().decode(RegistryManifest.self, from: deepest))
        let error = #expect(throws: ManifestError.self) { try RegistryManifest.decode(Data(nested(256).utf8)) }
        #expect(error?.message.contains("nesting deeper than 512") == true, "\(String(describing: error))")
        // Values skipped after a type mismatch are bounded the same way (no stack overflow).
        let skipped = #"{"name":"# + String(repeating: "[", count: 100_000)
        let skippedError = #expect(throws: ManifestError.self) { try RegistryManifest.decode(Data(skipped.utf8)) }
        #expect(skippedError?.path == "$.name")
    }

    static let badManifests: [(json: [UInt8], path: String, message: String)] = [
        (
            bytes(#"{"name":"x","groups":[{"key":"a"},{"key":"b","flags":[{"key":"k","default":"yes"}]}]}"#),
            "$.groups[1].flags[0].default", "expected a boolean (true or false), found a string"
        ),
        (
            bytes(#"{"name":"x","flags":[{"key":"a","defualt":true}]}"#), "$.flags[0].defualt",
            #"unknown field "defualt" (expected one of: key, label, description, default, requiresRestart, kind, enabledIn, remoteKey)"#
        ),
        (
            bytes(#"{"name":"x","groups":[{"key":"g","flags":[{"label":"no key"}]}]}"#), "$.groups[0].flags[0].key",
            #"missing required field "key""#
        ),
        (
            bytes("{\"name\":\"x\",\n\"flags\":[{\"key\":\"abc}]}"), "$.flags[0].key",
            "not valid JSON at line 2, column 17: unterminated string"
        ),
        (
            bytes(#"{"name":"a\qb"}"#), "$.name",
            #"not valid JSON at line 1, column 11: invalid escape: \ followed by 'q'"#
        ),
        (bytes(#"{"name":"x","flags":[{"key":"\ud800x"}]}"#), "$.flags[0].key", #"column 30: lone surrogate \uD800"#),
        (bytes(#"{"name":"\udc00"}"#), "$.name", #"lone surrogate \uDC00"#),
        (bytes(#"{"name":"\u12G4"}"#), "$.name", "invalid \\u escape"),
        (
            bytes(#"{"name":"a"#) + [0xFF] + bytes(#""}"#), "$.name",
            "column 11: invalid UTF-8 (a sequence starting with byte 0xFF)"
        ),
        (bytes(#"{"name":""#) + [0xED, 0xA0, 0x80] + bytes(#""}"#), "$.name", "invalid UTF-8"),
        (bytes(#"{"name":""#) + [0xC0, 0xAF] + bytes(#""}"#), "$.name", "invalid UTF-8"),
        (bytes(#"{"name":"é"#) + [0xE6, 0x97] + bytes(#""}"#), "$.name", "column 11: invalid UTF-8"),
        (bytes("{\"name\":\"a\tb\"}"), "$.name", "control character U+0009"),
        (bytes("{\"name\":\"x\"}\n x"), "$", "not valid JSON at line 2, column 2: unexpected 'x' after the manifest"),
        (bytes(#"{"name":"x"}{}"#), "$", "unexpected '{' after the manifest"),
        ([], "$", "not valid JSON: the file is empty"),
        (bytes(" \n "), "$", "not valid JSON at line 2, column 2: expected a value, found the end of the file"),
        (bytes(#"{"name":"x","flags":[{"key":"a"},]}"#), "$.flags", "trailing comma"),
        (bytes(#"{"name":"x",}"#), "$", "trailing comma"),
        (bytes(#"{"name":"x" "flags":[]}"#), "$", "expected ',' or '}' after a field, found '\"'"),
        (bytes(#"{"name":null}"#), "$.name", "expected a string, found null"),
        (bytes(#"[]"#), "$", "expected an object (the manifest), found an array"),
        (bytes(#"{"name":"x","flags":{}}"#), "$.flags", "expected an array of flags, found an object"),
        (bytes(#"{"name":"x","flags":[null]}"#), "$.flags[0]", "expected an object (a flag), found null"),
        (
            bytes(#"{"name":"x","flags":[{"key":"a","kind":"buildTarget","enabledIn":["debug","beta"]}]}"#),
            "$.flags[0].enabledIn[1]",
            #"unknown build target "beta" (expected one of: "debug", "internal", "production")"#
        ),
        (
            bytes(#"{"name":"x","flags":[{"key":"a","kind":3}]}"#), "$.flags[0].kind",
            "expected a string (a kind: one of"
        ),
        (
            bytes(#"{"name":"x","flags":[{"key":"a","default":tru}]}"#), "$.flags[0].default",
            "expected a value (such as true), found '}'"
        ),
        (
            bytes(#"{"name":"x","flags":[{"key":"a","default":"unterminated}]}"#), "$.flags[0].default",
            "unterminated string"
        ),
        (
            bytes(#"{"name":"x","remote":{"provider":"p","minimumFetchInterval":1e400}}"#),
            "$.remote.minimumFetchInterval",
            "expected a number within the range of a Double, found 1e400"
        ),
        (
            bytes(#"{"name":"x","remote":{"provider":"p","minimumFetchInterval":1e-400}}"#),
            "$.remote.minimumFetchInterval", "too small"
        ),
        (
            bytes(#"{"name":"x","remote":{"provider":"p","minimumFetchInterval":012}}"#),
            "$.remote.minimumFetchInterval", "leading zeros"
        ),
        (
            bytes(#"{"name":"x","remote":{"provider":"p","minimumFetchInterval":1.}}"#),
            "$.remote.minimumFetchInterval", "expected a digit after '.'"
        ),
        (
            bytes(#"{"name":"x","remote":{"provider":"p","minimumFetchInterval":"60"}}"#),
            "$.remote.minimumFetchInterval",
            "expected a number of seconds, found a string"
        ),
        (
            bytes(#"{"name":"x","remote":{"provider":"p","defaults":{"a.b":null}}}"#), #"$.remote.defaults["a.b"]"#,
            "expected a boolean, a number or a string, found null"
        ),
        (bytes(#"{"name":"x","remote":{"defaults":{}}}"#), "$.remote.provider", #"missing required field "provider""#),
        (
            bytes(#"{"name":"x","remote":{"provider":"p","region":"eu"}}"#), "$.remote.region",
            "unknown field \"region\""
        ),
        (bytes(#"{"name":"x","w\u0065ird.field":1}"#), #"$["weird.field"]"#, "unknown field \"weird.field\""),
        (bytes(#"{"name":"x","a\"b\u001b":1}"#), #"$["a\"b\u001B"]"#, #"unknown field "a\"b\u001B""#),
        (bytes(#"{"name":NaN}"#), "$.name", "expected a value, found 'N'"),
        (bytes(#"{"name":"x"/* comment */}"#), "$", "expected ',' or '}' after a field, found '/'"),
        ([0x00, 0x7B, 0x00], "$", "not valid UTF-16"),
    ]

    private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: 0..<badManifests.count)
    func badManifestsNameThePathAndWhatWasExpected(index: Int) {
        let bad = Self.badManifests[index]
        let error = #expect(throws: ManifestError.self) {
            try RegistryManifest.decode(Data(bad.json), source: "bad.json")
        }
        #expect(error?.source == "bad.json")
        #expect(error?.path == bad.path, "\(String(describing: error))")
        #expect(error?.message.contains(bad.message) == true, "\(String(describing: error))")
    }

    @Test func syntaxErrorsInValuesOfTheWrongTypeAreReportedAsSyntaxErrors() {
        let error = #expect(throws: ManifestError.self) {
            try RegistryManifest.decode(Data(#"{"name":"x","flags":[{"key":"a","default":[1,}]}"#.utf8))
        }
        #expect(error?.message.contains("not valid JSON") == true, "\(String(describing: error))")
    }
}
