import Foundation
import Testing

@testable import FlagstaffFuzz

/// The committed seeds of every fuzz target pass its checks (docs/fuzzing.md). A failed check aborts the test
/// process, as it aborts the fuzzer.
@Suite("Fuzz corpus")
struct FuzzCorpusTests {
    // …/Tests/FlagstaffFuzzTests/Targets/FuzzCorpusTests.swift
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    @Test("every target has seeds, and each one passes the target's checks", arguments: FuzzTarget.all.map(\.name))
    func seeds(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let folder = Self.corpus.appendingPathComponent(name)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.count >= 3, "a handful of seeds in Fuzz/Corpus/\(name)")
        for file in files {
            target.run(try Data(contentsOf: folder.appendingPathComponent(file)))
        }
    }

    @Test("every seed folder belongs to a target")
    func noStrayFolders() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
        #expect(Set(folders) == Set(FuzzTarget.all.map(\.name)))
    }
}
