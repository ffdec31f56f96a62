import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff

/// Every JSON reader skips a leading UTF-8 byte-order mark (RFC 8259 §8.1 lets a reader ignore it), reads UTF-16
/// and UTF-32 as `JSONDecoder` does, and never traps on bytes it is given.
@Suite struct ByteOrderMarkTests {
    static let mark: [UInt8] = [0xEF, 0xBB, 0xBF]

    func marked(_ text: String) -> Data { Data(Self.mark + Array(text.utf8)) }

    func utf16LittleEndian(_ text: String, mark: Bool) -> Data {
        var bytes: [UInt8] = mark ? [0xFF, 0xFE] : []
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return Data(bytes)
    }

    @Test func theJSONValueReaderSkipsTheMark() throws {
        let value = try JSONValue.read(marked(#"{"a":{"b":[1,"x"]}}"#))
        #expect(value == .object(["a": .object(["b": .array([.number(1), .string("x")])])]))
        #expect(try JSONValue.read(marked("3")) == .number(3))
        // A repeated name behind the mark is still found, at its path.
        let error = try #require(throws: JSONValue.SyntaxError.self) { try JSONValue.read(marked(#"{"a":1,"a":2}"#)) }
        #expect(error.duplicate == [.member("a")])
        // Only one mark is skipped; the mark alone is no JSON.
        #expect(throws: JSONValue.SyntaxError.self) {
            try JSONValue.read(Data(Self.mark + Self.mark + Array("{}".utf8)))
        }
        #expect(throws: JSONValue.SyntaxError.self) { try JSONValue.read(Data(Self.mark)) }
    }

    @Test func utf16TextIsReadAsItsUTF8() throws {
        for mark in [true, false] {
            let document = try JSONValue.readDocument(utf16LittleEndian(#"{"a":1,"é":"ü"}"#, mark: mark))
            #expect(document.value == .object(["a": .number(1), "é": .string("ü")]))
            #expect(document.members.map { document.json($0.value) } == ["1", #""ü""#])
        }
        let error = try #require(throws: JSONValue.SyntaxError.self) {
            try JSONValue.read(Data([0xFF, 0xFE, 0x7B]))  // an odd number of bytes
        }
        #expect(error.detail == "the text looks like UTF-16 but is not valid UTF-16")
    }

    @Test func storeFilesAndImportDocumentsWithAMarkAreRead() throws {
        let text = #"{"version":1,"overrides":{"blueText":"on","maxItems":5},"note":{"kept":[1, 2]}}"#
        let store = try OverrideFileFormat.decodeContents(marked(text), file: "s.json", rules: .store)
        #expect(store.overrides == ["blueText": .on, "maxItems": try OverrideValue(json: "5")])
        // Members the store does not know are kept as the text had them (ranges in the text after the mark).
        #expect(store.otherMembers == [.init(name: "note", json: #"{"kept":[1, 2]}"#)])
        let document = try OverrideFileFormat.decodeContents(
            marked(#"{"version":1,"overrides":{"blueText":"default"}}"#), file: "in.json", rules: .document)
        #expect(document.removals == ["blueText"])
        let empty = try #require(throws: OverrideFileError.self) {
            try OverrideFileFormat.decode(Data(Self.mark + Array("\n".utf8)), file: "in.json", rules: .store)
        }
        #expect(empty.description.contains("the file is empty"), "\(empty)")
    }

    @Test func aStoreFileWithAMarkIsReadAndRewrittenWithout() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("s.json")
        try marked(#"{"version":1,"overrides":{"blueText":"on"}}"#).write(to: url)
        let store = try FileOverrideStore(url: url)
        #expect(try store.load() == ["blueText": .on])
        _ = try store.write(["maxItems": .set(try OverrideValue(json: "5"))])
        let written = try Data(contentsOf: url)
        #expect(!written.starts(with: Self.mark))
        #expect(try FileOverrideStore(url: url).load() == ["blueText": .on, "maxItems": try OverrideValue(json: "5")])
    }

    @Test func profilesWithAMarkAreRead() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try marked(#"{"version":1,"overrides":{"blueText":"on"}}"#)
            .write(to: directory.appendingPathComponent("qa.json"))
        let profile = try ProfileLibrary(folder: directory).load("qa")
        #expect(profile.overrides == ["blueText": .on])
    }

    @Test func aBisectStateWithAMarkIsRead() throws {
        let session = try BisectSession(
            startedAt: Date(timeIntervalSince1970: 1_795_000_000), pattern: nil,
            candidates: ["a.x": .on, "a.y": .off], answers: [.good])
        let data = Data(Self.mark) + BisectStateFile.encode(session)
        #expect(try BisectStateFile.decode(data, path: "state") == session)
    }

    @Test func aJournalWhoseFirstLineHasAMarkIsRead() throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = ChangeJournal(
            layout: StoreLayout.unresolved(directory.appendingPathComponent("s.json")), options: JournalOptions())
        let line =
            #"{"time":"2026-11-23T19:00:41Z","change":"c1","key":"blueText","old":null,"new":"on","origin":"cli","#
            + #""user":"qa","pid":7,"command":"flagstaff set"}"#
        try (marked(line + "\n") + Data((line.replacingOccurrences(of: "c1", with: "c2") + "\n").utf8))
            .write(to: journal.url)
        let contents = journal.read()
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        #expect(contents.entries.map(\.change) == ["c1", "c2"])
    }

    @Test func manifestsAndJSONValuesWithAMarkAreRead() throws {
        let manifest = try RegistryManifest.decode(marked(#"{"name":"M","flags":[{"key":"a","default":true}]}"#))
        #expect(manifest.name == "M")
        #expect(try OverrideValue(json: "\u{FEFF}{\"b\":1}") == OverrideValue(json: #"{"b":1}"#))
    }

    /// Valid documents cut, spliced and sprinkled with marks, zero bytes and stray brackets: each read returns a
    /// value or throws, never traps (a trap would end the test process).
    @Test func noByteSequenceTrapsTheReaders() throws {
        let seeds = [
            #"{"version":1,"overrides":{"a":"on","b":{"c":[1,{"d":null}]}},"x":"\u00e9\"\\"}"#,
            #"[{"a":1},{"a":1,"a":2},[[["\ud83d\ude00"]]]]"#,
            #"{"time":"2026-11-23T19:00:41.123Z","change":"c","key":"k","old":null,"new":"on","origin":"cli"}"#,
        ].map { Array($0.utf8) }
        let noise: [[UInt8]] = [Self.mark, [0xFF, 0xFE], [0xFE, 0xFF], [0], [0x7D], [0x5D], [0x22], [0x5C], [0xC3]]
        var random = SeededRandom(seed: 24)
        var cache = JournalLine.StringCache()
        for _ in 0..<3000 {
            var bytes = seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0..<Int(random.next() % 4) {
                let at = Int(random.next() % UInt64(bytes.count + 1))
                switch random.next() % 3 {
                case 0: bytes.insert(contentsOf: noise[Int(random.next() % UInt64(noise.count))], at: at)
                case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int(random.next() % 8)))
                default: bytes = Array(bytes[at...] + bytes[..<at])
                }
            }
            let data = Data(bytes)
            _ = try? JSONValue.readDocument(data)
            _ = try? OverrideFileFormat.decodeContents(data, file: "f", rules: .store)
            _ = try? RegistryManifest.decode(data)
            _ = try? BisectStateFile.decode(data, path: "state")
            bytes.withUnsafeBufferPointer { _ = try? JournalLine.decode($0, cache: &cache) }
        }
    }
}
