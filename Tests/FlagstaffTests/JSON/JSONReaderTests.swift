import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff

/// One JSON reader (`JSONReader`) for manifests, store files, profiles, journals, bisect state and request bodies:
/// the same strictness and the same kind of message everywhere, with line and column for syntax errors.
@Suite struct JSONReaderTests {
    @Test func aSyntaxErrorSaysWhereItIs() throws {
        let error = try #require(throws: JSONValue.SyntaxError.self) {
            try JSONValue.read(Data("{\n  \"a\": tru}".utf8))
        }
        #expect(error.detail == "line 2, column 11: expected a value (such as true), found '}'")
    }

    @Test func aStoreFileSyntaxErrorNamesTheLineAndColumn() throws {
        let error = try #require(throws: OverrideFileError.self) {
            try OverrideFileFormat.decodeContents(
                Data("{\"version\": 1,\n \"overrides\": {\"a\": \"on\",}}".utf8), file: "s.json", rules: .store)
        }
        #expect(
            error.problem
                == #"not valid JSON (line 2, column 26: expected a field name after ',' (a trailing comma is not allowed)); expected a JSON object like {"version":1,"overrides":{"key":"on"}}"#
        )
    }

    @Test func storeEntriesAreReadIntoCanonicalValuesWithWholeNumbersExact() throws {
        let text =
            #"{"version":1,"overrides":{"a":"on","b":"off","c":"plain","d":"tab\there","e":12345678901234567,"#
            + #""f":1.50,"g":{"z":[1.0,true,null],"a":"\u00e9"},"h":-0,"i":1e2,"j":-123456789012345678901234567890}}"#
        let overrides = try OverrideFileFormat.decode(Data(text.utf8), file: "s.json", rules: .store)
        #expect(
            overrides.mapValues(\.json) == [
                "a": #""on""#, "b": #""off""#, "c": #""plain""#, "d": #""tab\there""#, "e": "12345678901234567",
                "f": "1.5", "g": #"{"a":"é","z":[1,true,null]}"#, "h": "0", "i": "100",
                "j": "-123456789012345678901234567890",  // beyond 64 bits: the digits as written, not -1.2e+29
            ])
        #expect(overrides["a"] == .on && overrides["b"] == .off)
    }

    @Test func aRepeatedMemberAnywhereInAStoreFileIsNamedAtItsPath() throws {
        let nested = try #require(throws: OverrideFileError.self) {
            try OverrideFileFormat.decodeContents(
                Data(#"{"version":1,"overrides":{"k":{"a":1,"a":2}}}"#.utf8), file: "s.json", rules: .store)
        }
        #expect(nested.path == #"$.overrides["k"]["a"]"#)
        let key = try #require(throws: OverrideFileError.self) {
            try OverrideFileFormat.decodeContents(
                Data(#"{"version":1,"overrides":{"k":"on","k":"off"}}"#.utf8), file: "s.json", rules: .store)
        }
        #expect(key.path == #"$.overrides["k"]"# && key.key == "k")
    }

    @Test func aJournalLineWithBrokenJSONInAMemberItDoesNotKnowIsAProblem() throws {
        let directory = temporaryDirectory()
        let journal = ChangeJournal(
            layout: StoreLayout.unresolved(directory.appendingPathComponent("overrides.json")),
            options: JournalOptions())
        let line =
            #"{"time":"2026-11-23T19:00:41Z","change":"c","key":"k","old":null,"new":"on","origin":"cli","#
            + #""extra":{"a":tru}}"#
        try (line + "\n").write(toFile: journal.url.path, atomically: true, encoding: .utf8)
        let contents = journal.read()
        #expect(contents.entries.isEmpty)
        #expect(
            contents.problems.map(\.reason) == [#"$.extra.a: expected a value (such as true), found '}' (column 108)"#])
    }

    @Test func theDecodableConformancesReportTheReadersMessageAtItsPath() throws {
        let data = Data(#"{"name":"x","flags":[{"key":"a","default":3}]}"#.utf8)
        do {
            _ = try JSONDecoder().decode(RegistryManifest.self, from: data)
            Issue.record("a number as a flag's default was read")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "expected a boolean (true or false), found a number")
            #expect(
                context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["flags", "0", "default"])
        }
        let ours = #expect(throws: ManifestError.self) { try RegistryManifest.decode(data) }
        #expect(ours?.message == "expected a boolean (true or false), found a number")
        #expect(ours?.path == "$.flags[0].default")
    }
}
