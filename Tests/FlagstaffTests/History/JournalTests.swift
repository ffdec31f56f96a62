import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

@Suite struct JournalTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }
    var journalFile: String { file.path + ".history.jsonl" }

    func lines() throws -> [String] {
        try String(contentsOfFile: journalFile, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func everyChangeIsOneJSONLinePerKeyWithWhoAndWhen() throws {
        let store = try FileOverrideStore(url: file)
        let before = Date()
        _ = try store.write(["blueText": .set(.on)])
        _ = try store.write(["blueText": .set(.off), "maxItems": .set(try OverrideValue(json: "50"))])
        _ = try store.write(["blueText": .set(.off)])  // no change: nothing journaled
        let contents = try #require(try store.journal()).read()
        #expect(contents.problems.isEmpty)
        #expect(try lines().count == 3)
        let changes = contents.changes
        #expect(changes.count == 2)
        #expect(changes[0].entries.map(\.key) == ["blueText"])
        #expect(changes[0].entries[0].old == nil && changes[0].entries[0].new == .on)
        #expect(changes[1].keys == ["blueText", "maxItems"], "a bulk change is one change")
        #expect(changes[1].entries[0].old == .on && changes[1].entries[0].new == .off)
        #expect(changes[1].entries[1].new == (try OverrideValue(json: "50")))
        let entry = changes[1].entries[0]
        #expect(entry.origin == .app)
        #expect(entry.pid == getpid())
        #expect(!entry.user.isEmpty && !entry.command.isEmpty)
        #expect(entry.time.timeIntervalSince(before) > -1 && entry.time.timeIntervalSinceNow < 1)
        let object = try JSONSerialization.jsonObject(with: Data(try lines()[0].utf8)) as? [String: Any]
        #expect(object?["key"] as? String == "blueText")
        #expect(object?["old"] is NSNull)
        #expect(object?["new"] as? String == "on")
        #expect(object?["origin"] as? String == "app")
        #expect((object?["time"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func theOriginComesFromTheWriteElseTheStoreElseApp() throws {
        let store = try FileOverrideStore(url: file, journal: JournalOptions(origin: .cli))
        _ = try store.write(["a": .set(.on)])
        _ = try store.write(["b": .set(.on)], known: nil, parameters: WriteParameters(origin: .import))
        let changes = try #require(try store.journal()).read().changes
        #expect(changes.map(\.origin) == [.cli, .import])
    }

    @Test func aStoreWithoutAJournalWritesNone() throws {
        let store = try FileOverrideStore(url: file, journal: nil)
        _ = try store.write(["a": .set(.on)])
        #expect(try store.journal() == nil)
        #expect(!FileManager.default.fileExists(atPath: journalFile))
    }

    @Test func oddKeysAndValuesRoundTrip() throws {
        let store = try FileOverrideStore(url: file)
        let key = "quote\"back\\slash\nline\u{1B}[31m é"
        let value = try OverrideValue(json: #"{"b":[1,2.5,null,true],"a":"x\"y"}"#)
        _ = try store.write([key: .set(value), "text": .set(OverrideValue(string: "tab\there ✓"))])
        _ = try store.write([key: .remove])
        let entries = try #require(try store.journal()).read().entries
        #expect(entries.count == 3)
        let first = try #require(entries.first { $0.key == key })
        #expect(first.new == value)
        #expect(entries.first { $0.key == "text" }?.new == OverrideValue(string: "tab\there ✓"))
        #expect(entries.last?.key == key && entries.last?.old == value && entries.last?.new == nil)
    }

    @Test func timestampsRoundTripToTheMillisecond() {
        for seconds in [0.0, 1_795_000_000.123, 951_782_400.999, 4_102_444_799.5, -86_400.25] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = JournalTime.text(date)
            let back = JournalTime.date(Array(text.utf8))
            #expect(back.map { abs($0.timeIntervalSince1970 - seconds) < 0.001 } == true, "\(text)")
        }
        #expect(JournalTime.text(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00.000Z")
        #expect(JournalTime.date(Array("2026-13-01T00:00:00Z".utf8)) == nil)
    }

    @Test func aTornLastLineIsIgnoredAndCutByTheNextAppend() throws {
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["a": .set(.on)])
        let handle = try #require(FileHandle(forWritingAtPath: journalFile))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"time":"2026-11-23T19:00:41.123Z","change":"torn","key":"b","ol"#.utf8))
        try handle.close()
        let journal = try #require(try store.journal())
        #expect(journal.read().entries.map(\.key) == ["a"])
        #expect(journal.read().problems.isEmpty, "a torn last line is not a problem")
        _ = try store.write(["c": .set(.on)])
        #expect(journal.read().entries.map(\.key) == ["a", "c"])
        #expect(try lines().count == 2)
        #expect(try !String(contentsOfFile: journalFile, encoding: .utf8).contains("torn"))
    }

    @Test func malformedLinesAreReportedWithLineAndPathAndNeverBlockAWrite() throws {
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["a": .set(.on)])
        let bad = [
            "not json",
            #"{"time":"yesterday","change":"x","key":"k","old":null,"new":"on","origin":"cli"}"#,
            #"{"time":"2026-11-23T19:00:41.123Z","change":"x","key":"k","old":null,"origin":"cli"}"#,
            #"{"time":"2026-11-23T19:00:41.123Z","change":"x","key":"k","old":tru,"new":"on","origin":"cli"}"#,
            "\u{0}\u{0}\u{0}",
        ]
        let handle = try #require(FileHandle(forWritingAtPath: journalFile))
        handle.seekToEndOfFile()
        handle.write(Data((bad.joined(separator: "\n") + "\n").utf8))
        try handle.close()
        let receipt = try store.write(["b": .set(.on)], known: nil)
        #expect(receipt.journalError == nil)
        let contents = try #require(try store.journal()).read()
        #expect(contents.entries.map(\.key) == ["a", "b"])
        #expect(contents.problems.map(\.line) == [2, 3, 4, 5, 6])
        #expect(contents.problems[0].reason == "$: expected a JSON object")
        #expect(contents.problems[1].reason.hasPrefix("$.time: expected a UTC time"))
        #expect(contents.problems[2].reason == #"$: missing "new""#)
        #expect(contents.problems[3].reason.hasPrefix("$.old: expected a JSON value"))
        #expect(contents.problems[0].description.hasPrefix(journalFile + ":2: "))
    }

    @Test func anUnwritableJournalNeverBlocksAChange() throws {
        try FileManager.default.createDirectory(atPath: journalFile, withIntermediateDirectories: true)
        let store = try FileOverrideStore(url: file)
        let receipt = try store.write(["a": .set(.on)], known: nil)
        #expect(try store.load() == ["a": .on])
        #expect(receipt.journalError.map { "\($0)".contains(journalFile) } == true)
    }

    @Test func theJournalIsRotatedAtItsSizeAndTheOldestIsDropped() throws {
        let store = try FileOverrideStore(url: file, journal: JournalOptions(maxBytes: 4096))
        for index in 0..<100 {
            _ = try store.write(["key.\(index)": .set(.on)])
        }
        let journal = try #require(try store.journal())
        let current = try #require(FileManager.default.attributesOfItem(atPath: journalFile)[.size] as? Int)
        let rotated = try #require(
            FileManager.default.attributesOfItem(atPath: journal.rotatedURL.path)[.size] as? Int)
        #expect(current < 4096 + 400 && rotated < 4096 + 400, "each file stops growing near the limit")
        let keys = journal.read().entries.map(\.key)
        #expect(keys.last == "key.99")
        #expect(!keys.contains("key.0"), "the oldest changes were dropped")
        let longest = try lines().map(\.utf8.count).max() ?? 1
        #expect(keys.count >= 4096 / (longest + 1), "at least the rotated file's worth of changes is kept")
        #expect(keys == keys.sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! })
    }

    @Test func theJournalIsBesideTheFileALinkNames() throws {
        let real = directory.appendingPathComponent("real.json")
        #expect(symlink(real.path, file.path) == 0)
        try Data(#"{"version":1,"overrides":{}}"#.utf8).write(to: real)
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["a": .set(.on)])
        #expect(FileManager.default.fileExists(atPath: real.path + ".history.jsonl"))
        #expect(try store.journal()?.url.path == real.path + ".history.jsonl")
    }
}
