import Flagstaff
import Foundation
import Testing

@testable import FlagstaffCLI

/// `history` writes its output in chunks of ``HistoryCommand/chunkSize`` bytes: output several chunks long
/// must be exactly the changes, newest first, with nothing lost or repeated at a chunk's edge.
@Suite("flagstaff history, streamed output")
struct HistoryStreamingTests {
    /// 1,500 changes of two keys each: about 200 KB of text, several chunks.
    func bigJournal(_ sandbox: CLISandbox) throws -> Int {
        let changes = 1500
        var text = ""
        for change in 0..<changes {
            for key in 0..<2 {
                text +=
                    #"{"time":"2026-11-23T19:00:41.123Z","change":"c\#(change)","key":"k\#(key).f\#(change)","#
                    + #""old":null,"new":"on","origin":"cli","user":"qa","pid":9,"command":"flagstaff set"}"#
                    + "\n"
            }
        }
        try sandbox.write("overrides.json.history.jsonl", text)
        return changes
    }

    @Test func textSeveralChunksLongHasEveryChangeOnceNewestFirst() async throws {
        let sandbox = try CLISandbox()
        let changes = try bigJournal(sandbox)
        let result = try await sandbox.runWithStore(["history"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.utf8.count > 2 * HistoryCommand.chunkSize)
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == changes * 3 + 1 && lines.last == "")
        for change in stride(from: changes - 1, through: 0, by: -1) {
            let at = (changes - 1 - change) * 3
            #expect(
                lines[at] == "2026-11-23 19:00:41  cli  qa  pid 9  flagstaff set  [c\(change)]",
                "line \(at + 1)")
            #expect(lines[at + 1] == "    k0.f\(change): default → on")
            #expect(lines[at + 2] == "    k1.f\(change): default → on")
        }
    }

    @Test func jsonSeveralChunksLongIsOneDocumentWithEveryChange() async throws {
        let sandbox = try CLISandbox()
        let changes = try bigJournal(sandbox)
        let result = try await sandbox.runWithStore(["history", "--json"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.utf8.count > 2 * HistoryCommand.chunkSize)
        #expect(result.standardOutput.hasSuffix("]}\n"))
        let object = try sandbox.jsonObject(result)
        let listed = try #require(object["changes"] as? [[String: Any]])
        #expect(listed.map { $0["id"] as? String } == (0..<changes).reversed().map { "c\($0)" })
        #expect(listed.allSatisfy { ($0["changes"] as? [Any])?.count == 2 && $0["pid"] as? Int == 9 })
    }

    @Test func theLinesOfAChangeAreItsAppendedText() throws {
        let entries = ["a", "b\u{1B}"].map {
            JournalEntry(
                time: Date(timeIntervalSince1970: 0), change: "x", key: $0, old: .on, new: nil, origin: .profile,
                user: "q\na", pid: 1, command: "", profile: "p", undoes: "u", redoes: nil)
        }
        let change = HistoryChange(id: "x", entries: entries)
        var bytes: [UInt8] = []
        HistoryOutput.appendText(change, entries: entries, to: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(HistoryOutput.lines(change, entries: entries).map { $0 + "\n" }.joined() == text)
        #expect(
            text.split(separator: "\n").first
                == "1970-01-01 00:00:00  profile p of u  q a  pid 1  [x]")
        #expect(text.split(separator: "\n").count == 3)
    }
}
