import Foundation
import Testing

@testable import FlagstaffUnleash

/// A state body is read once, by the package's one JSON reader, with its edge cases: a repeated name is refused
/// at its path, a byte-order mark is skipped, a syntax error is placed by the reader itself.
@Suite struct StateReadingTests {
    private func failure(_ json: String) -> UnleashStateError? {
        do {
            try UnleashEngine().takeState(Data(json.utf8))
            return nil
        } catch {
            return error as? UnleashStateError
        }
    }

    @Test func aRepeatedNameIsRefusedAtItsPath() throws {
        let error = try #require(failure(#"{"features":[{"name":"a","enabled":true,"enabled":false}]}"#))
        #expect(error.path == "features[0].enabled")
        #expect(error.message.contains("duplicate member"), "\(error)")
        // Also among the members the engine does not use.
        let unknown = try #require(failure(#"{"features":[{"name":"a","enabled":true,"x":1,"x":2}]}"#))
        #expect(unknown.path == "features[0].x")
    }

    @Test func aSyntaxErrorIsPlacedByTheReader() throws {
        let error = try #require(failure("{\"features\": [\n  {\"name\": \"a\", \"enabled\": tru}]}"))
        #expect(error.path == "")
        #expect(
            error.message == "not valid JSON at line 2, column 31 (expected a value (such as true), found '}')",
            "\(error)")
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let engine = UnleashEngine()
        try engine.takeState(Data("\u{FEFF}{\"features\":[{\"name\":\"a\",\"enabled\":true}]}".utf8))
        #expect(engine.isEnabled("a", context: UnleashContext()))
    }

    /// The server-side client's model takes each feature's JSON text from the same read as the engine.
    @Test func theClientsDocumentComesFromTheEnginesRead() throws {
        let feature = #"{"name":"a","enabled":true,"createdAt":"2024-01-01","strategies":[{"name":"default"}]}"#
        let body = #"{"version":2,"features":[\#(feature)],"segments":[{"id":3,"constraints":[]}]}"#
        let document = UnleashStateDocument(try UnleashEngine.read(Data(body.utf8), keepingJSON: true))
        guard case .full(let features, let segments) = document else {
            Issue.record("expected a full body")
            return
        }
        #expect(features.map(\.name) == ["a"])
        #expect(features.first?.json == Data(feature.utf8))
        #expect(segments.map(\.id) == [3])
        #expect(segments.first?.json == Data(#"{"id":3,"constraints":[]}"#.utf8))
    }

    @Test func frontendTogglesRefuseARepeatedName() throws {
        let error = #expect(throws: UnleashClientError.self) {
            try UnleashBootstrap.json(Data(#"{"toggles":[{"name":"a","enabled":true,"enabled":false}]}"#.utf8))
        }
        #expect(error?.message.contains("$.toggles[0].enabled") == true, "\(String(describing: error))")
        #expect(error?.message.contains("duplicate member") == true, "\(String(describing: error))")
    }
}
