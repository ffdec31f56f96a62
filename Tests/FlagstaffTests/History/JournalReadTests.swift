import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

/// The journal reader's fast paths: member names recognised by length and first byte, and strings reused from
/// the previous line only when their bytes repeat.
@Suite struct JournalReadTests {
    let directory = temporaryDirectory()
    var storePath: String { directory.appendingPathComponent("overrides.json").path }

    func read(_ lines: [String]) throws -> ChangeJournal.Contents {
        let journal = ChangeJournal(
            layout: StoreLayout.unresolved(URL(fileURLWithPath: storePath)), options: JournalOptions())
        try lines.map { $0 + "\n" }.joined().write(toFile: journal.url.path, atomically: true, encoding: .utf8)
        return journal.read()
    }

    @Test func aLargeJournalReadInTwoHalvesGivesEveryLineInOrderWithItsNumber() throws {
        // Changes of 7 lines each, enough to pass the two-thread threshold; bad and blank lines on either side.
        var lines: [String] = []
        var expectedKeys: [String] = []
        var change = 0
        while lines.map(\.utf8.count).reduce(0, +) < ChangeJournal.parallelReadThreshold * 3 / 2 {
            for key in 0..<7 {
                lines.append(
                    #"{"time":"2026-11-23T19:00:41Z","change":"c\#(change)","key":"k\#(change).\#(key)","old":null,"#
                        + #""new":"on","origin":"cli","user":"qa","pid":7,"command":"flagstaff set"}"#)
                expectedKeys.append("k\(change).\(key)")
            }
            change += 1
        }
        let bad = [10, lines.count / 2 + 3, lines.count - 2]
        for index in bad.reversed() { lines.insert("not json", at: index) }
        lines.insert("   ", at: lines.count / 3)
        let contents = try read(lines)
        #expect(contents.entries.map(\.key) == expectedKeys)
        #expect(contents.changes.count == change, "a change whose lines straddle the halves stays one change")
        #expect(contents.changes.allSatisfy { $0.entries.count == 7 })
        let numbers = lines.indices.filter { lines[$0] == "not json" }.map { $0 + 1 }
        #expect(contents.problems.map(\.line) == numbers)
    }

    @Test func namesThatShareALengthAndFirstLetterWithAMemberAreOtherMembers() throws {
        // "tame" (time), "kex" (key), "ola"/"nix"/"pad" (old/new/pid), "change" look-alikes, "users" ...
        let line =
            #"{"tame":"x","time":"2026-11-23T19:00:41.123Z","chance":"nope","change":"c1","kex":"k","key":"a.b","#
            + #""ola":1,"old":null,"nix":2,"new":"on","oracle":"x","origin":"cli","uses":"x","user":"qa","#
            + #""pad":"x","pid":7,"commend":"x","command":"cmd","profit":"x","undone":"x","redone":"x"}"#
        let contents = try read([line])
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        let entry = try #require(contents.entries.first)
        #expect(entry.change == "c1" && entry.key == "a.b" && entry.old == nil && entry.new == .on)
        #expect(entry.origin == .cli && entry.user == "qa" && entry.pid == 7 && entry.command == "cmd")
        #expect(entry.profile == nil && entry.undoes == nil && entry.redoes == nil)
    }

    @Test func membersInAnyOrderWithProfileUndoAndRedo() throws {
        let line =
            #"{"redoes":"r","undoes":"u","profile":"p","command":"c","pid":3,"user":"u","origin":"profile","#
            + #""new":"off","old":"on","key":"k","change":"id","time":"2026-11-23T19:00:41Z"}"#
        let entry = try #require(try read([line]).entries.first)
        #expect(entry.profile == "p" && entry.undoes == "u" && entry.redoes == "r")
        #expect(entry.origin == .profile && entry.old == .on && entry.new == .off && entry.pid == 3)
    }

    @Test func repeatedStringsAreReusedOnlyWhenTheirBytesRepeat() throws {
        func line(_ change: String, _ user: String, _ command: String, _ profile: String) -> String {
            #"{"time":"2026-11-23T19:00:41.123Z","change":"\#(change)","key":"k","old":null,"new":"on","#
                + #""origin":"cli","user":"\#(user)","pid":1,"command":"\#(command)","profile":"\#(profile)"}"#
        }
        let contents = try read([
            line("a", "qa", "one", "p"), line("a", "qa", "one", "p"), line("b", "qb", "two", "q"),
            line("ab", "q", "tw", "pq"), line("a", "qa", #"o\u006ee"#, "p"), line("a", "qa", "one", "p"),
        ])
        #expect(contents.problems.isEmpty, "\(contents.problems)")
        #expect(contents.entries.map(\.change) == ["a", "a", "b", "ab", "a", "a"])
        #expect(contents.entries.map(\.user) == ["qa", "qa", "qb", "q", "qa", "qa"])
        #expect(contents.entries.map(\.command) == ["one", "one", "two", "tw", "one", "one"])
        #expect(contents.entries.map { $0.profile ?? "-" } == ["p", "p", "q", "pq", "p", "p"])
        #expect(contents.changes.map(\.id) == ["a", "b", "ab", "a"])
    }

    @Test func aBadLineBetweenTwoGoodOnesLeavesTheCacheIntact() throws {
        let good = #"{"time":"2026-11-23T19:00:41Z","change":"c","key":"k","old":null,"new":"on","origin":"cli"}"#
        let bad = #"{"time":"2026-11-23T19:00:41Z","change":"d","key":"k","old":nul"#
        let contents = try read([good, bad, good.replacingOccurrences(of: #""k""#, with: #""k2""#)])
        #expect(contents.problems.map(\.line) == [2])
        #expect(contents.changes.map(\.id) == ["c"])
        #expect(contents.changes.first?.keys == ["k", "k2"])
    }
}
