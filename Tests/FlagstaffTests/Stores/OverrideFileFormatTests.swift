import Foundation
import Testing

@testable import Flagstaff

/// The one override-file parser: the store's rules and the stricter rules of documents given to `import`.
@Suite struct OverrideFileFormatTests {
    private func decode(_ text: String, _ rules: OverrideFileFormat.Rules) throws(OverrideFileError) -> [String:
        OverrideValue]
    {
        try OverrideFileFormat.decode(Data(text.utf8), file: "in.json", rules: rules)
    }

    private func error(_ text: String, _ rules: OverrideFileFormat.Rules) -> OverrideFileError? {
        do {
            _ = try decode(text, rules)
            return nil
        } catch {
            return error
        }
    }

    @Test func bothRulesReadTheStoreFormatWhateverTheKeys() throws {
        let text = #"{"version":1,"overrides":{"blueText":"on","other.app.flag":"off"}}"#
        for rules in [OverrideFileFormat.Rules.store, .document] {
            #expect(try decode(text, rules) == ["blueText": .enabled, "other.app.flag": .disabled])
        }
    }

    @Test func defaultAndNullRemoveOnlyInDocuments() throws {
        let text = #"{"version":1,"overrides":{"blueText":"default","maxItems":null,"a":"on"}}"#
        let document = try OverrideFileFormat.decodeContents(Data(text.utf8), file: "in.json", rules: .document)
        #expect(document.overrides == ["a": .on])
        #expect(document.removals == ["blueText", "maxItems"])
        let store = try OverrideFileFormat.decodeContents(Data(text.utf8), file: "in.json", rules: .store)
        #expect(store.removals.isEmpty)
        #expect(
            store.overrides == [
                "blueText": OverrideValue(string: "default"), "maxItems": try OverrideValue(json: "null"), "a": .on,
            ])
    }

    @Test func unknownFieldsAreIgnoredInTheStoreAndRefusedInDocuments() throws {
        let text = #"{"version":1,"overrides":{"a":"on"},"comment":"x"}"#
        #expect(try decode(text, .store) == ["a": .enabled])
        #expect(
            error(text, .document)?.description
                == #"in.json: $.comment: unknown field (expected "version" and "overrides")"#)
        #expect(error(#"{"version":1,"overrides":{},"odd name":1}"#, .document)?.path == #"$["odd name"]"#)
    }

    @Test func everyJSONValueIsKeptInCanonicalForm() throws {
        let text =
            #"{"version":1,"overrides":{"m":1,"z":"x","b":true,"f":20.0,"h":0.5,"o":{"y":[1,{"b":2,"a":1}],"x":null}}}"#
        let overrides = try decode(text, .store)
        #expect(
            overrides.mapValues(\.json) == [
                "m": "1", "z": #""x""#, "b": "true", "f": "20", "h": "0.5", "o": #"{"x":null,"y":[1,{"a":1,"b":2}]}"#,
            ])
        #expect(try decode(String(decoding: OverrideFileFormat.encode(overrides), as: UTF8.self), .store) == overrides)
    }

    @Test(
        arguments: [
            ("", nil, "the file is empty"),
            ("{\"version\":1,", nil, "not valid JSON ("),
            ("[1]", "$", "expected a JSON object like"),
            (#"{"overrides":{}}"#, "$", #"missing "version" (expected 1)"#),
            (#"{"version":1.5,"overrides":{}}"#, "$.version", #"unsupported "version" 1.5 (expected 1)"#),
            (#"{"version":1}"#, "$", #"missing "overrides""#),
            (
                #"{"version":1,"overrides":"on"}"#, "$.overrides",
                #"expected an object of key → a value ("on", "off" or a setting's value), found "on""#
            ),
        ] as [(String, String?, String)])
    func badDocumentsNameThePlaceAndWhatWasExpected(text: String, path: String?, problem: String) throws {
        let failure = try #require(error(text, .store))
        #expect(failure.file == "in.json")
        #expect(failure.path == path)
        #expect(failure.problem.contains(problem), "\(failure)")
    }

    @Test func keysInMessagesAreEscaped() throws {
        let key = "e\\u001b[2J\\u202e"
        let failure = try #require(error(#"{"version":1,"overrides":{"\#(key)":"on","\#(key)":"off"}}"#, .store))
        #expect(failure.path == #"$.overrides["e\u001B[2J\u202E"]"#)
        #expect(failure.key == "e\u{1B}[2J\u{202E}")
    }

    @Test func theStoreReportsAParseErrorAsCorrupt() {
        #expect(
            throws: OverrideStoreError.corrupt(
                path: "/x.json", reason: #"$.version: unsupported "version" 2 (expected 1)"#)
        ) {
            try OverrideFileFormat.decode(Data(#"{"version":2,"overrides":{"a":1}}"#.utf8), path: "/x.json")
        }
    }

    @Test func encodeWritesWhatDecodeReads() throws {
        let overrides: [String: OverrideValue] = ["b": .off, "a\u{1B}": .on]
        let data = OverrideFileFormat.encode(overrides)
        #expect(
            String(decoding: data, as: UTF8.self)
                == "{\n  \"version\": 1,\n  \"overrides\": {\n    \"a\\u001B\": \"on\",\n    \"b\": \"off\"\n  }\n}\n")
        #expect(try OverrideFileFormat.decode(data, file: "x", rules: .store) == ["a\u{1B}": .enabled, "b": .disabled])
    }

    @Test(
        arguments: [
            (#"{"version":1,"overrides":{"a":"on","b":"off","a":"off"}}"#, #"$.overrides["a"]"#, "a" as String?),
            (#"{"version":1,"overrides":{"a":"on","\u0061":"on"}}"#, #"$.overrides["a"]"#, "a"),
            (#"{"version":1,"version":1,"overrides":{}}"#, "$.version", nil),
            (#"{"version":1,"overrides":{},"meta":{"x":1,"x":2}}"#, #"$.meta["x"]"#, nil),
            (#"{"version":1,"overrides":{},"m":[{"k":1},{"k":1,"k":2}]}"#, #"$.m[1]["k"]"#, nil),
            (#"{"version":1,"overrides":{"\ud83d\ude00":"on","😀":"off"}}"#, #"$.overrides["😀"]"#, "😀"),
            // Names Swift compares as equal (canonical equivalence) would collide in a dictionary.
            (#"{"version":1,"overrides":{"K":"on","\u212a":"off"}}"#, #"$.overrides["\#u{212A}"]"#, "\u{212A}"),
            (#"{"version":1,"overrides":{"\u00e9":"on","e\u0301":"off"}}"#, #"$.overrides["e\#u{301}"]"#, "e\u{301}"),
        ] as [(String, String, String?)])
    func aRepeatedNameIsAnErrorAtItsPath(text: String, path: String, key: String?) throws {
        for rules in [OverrideFileFormat.Rules.store, .document] {
            let failure = try #require(error(text, rules))
            #expect(failure.path == path)
            #expect(failure.key == key)
            #expect(failure.problem.contains("appears more than once"), "\(failure)")
        }
    }

    @Test func theSameNameInDifferentObjectsIsFine() throws {
        let text = #"{"version":1,"overrides":{"a":"on","overrides":"off"},"m":{"a":1,"version":[{"a":1},{"a":2}]}}"#
        #expect(try decode(text, .store) == ["a": .enabled, "overrides": .disabled])
    }

    @Test func otherMembersAreWrittenBackAfterTheOverrides() throws {
        let contents = try OverrideFileFormat.decodeContents(
            Data(#"{"note":"x","version":1,"overrides":{"a":"on"},"n":[1, 2]}"#.utf8), file: "x", rules: .store)
        #expect(contents.otherMembers.map(\.name) == ["note", "n"])
        #expect(
            String(
                decoding: OverrideFileFormat.encode(contents.overrides, otherMembers: contents.otherMembers),
                as: UTF8.self)
                == "{\n  \"version\": 1,\n  \"overrides\": {\n    \"a\": \"on\"\n  },\n  \"note\": \"x\",\n  \"n\": [1, 2]\n}\n"
        )
    }
}
