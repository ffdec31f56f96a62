import Foundation
import Testing

@testable import Flagstaff

@Suite struct JournalBatchEncodingTests {
    private func entry(
        _ key: String, change: String = "c1", time: Double = 1_800_000_000.5, origin: ChangeOrigin = .console,
        undoes: String? = nil, old: OverrideValue? = nil, new: OverrideValue? = .on
    ) -> JournalEntry {
        JournalEntry(
            time: Date(timeIntervalSince1970: time), change: change, key: key, old: old, new: new, origin: origin,
            user: "qa \"lead\"", pid: 42, command: "flagstaff\tset", profile: nil, undoes: undoes, redoes: nil)
    }

    @Test func aChangeEncodedAtOnceIsTheSameBytesAsLineByLine() {
        let entries = [
            entry("a"), entry("odd \"key\"\\\n\u{7F}é", old: .off, new: nil),
            entry("b", change: "c2"), entry("c", change: "c2", time: 1_800_000_001),
            entry("d", change: "c2", time: 1_800_000_001, origin: .undo, undoes: "c1"),
            entry("e", change: "c2", time: 1_800_000_001, origin: .undo, undoes: "c1", new: OverrideValue(string: "x")),
        ]
        #expect(JournalLine.encode(entries) == entries.map { JournalLine.encode($0) }.joined())
        #expect(JournalLine.encode([JournalEntry]()) == "")
    }

    @Test func quotingCopiesPlainTextWholeAndStillEscapesEverythingElse() {
        #expect(JSONText.quoted("checkout.v2_flag-1") == #""checkout.v2_flag-1""#)
        #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.quoted("tab\there") == #""tab\there""#)
        #expect(JSONText.quoted("del\u{7F}") == #""del\u007F""#)
        #expect(JSONText.quoted("é") == "\"é\"")
        // A caller's extra escapes apply to ASCII too.
        #expect(JSONText.quoted("a$b", alsoEscaping: { $0 == "$" }) == #""a\u0024b""#)
    }
}
