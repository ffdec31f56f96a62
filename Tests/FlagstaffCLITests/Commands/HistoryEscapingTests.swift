import Foundation
import Testing

/// `history`, `undo` and `redo` print every field of a journal line escaped the same way: a hand-edited journal
/// cannot put a raw escape character (or a bidirectional mark) on the terminal, in text or in JSON.
@Suite struct HistoryEscapingTests {
    static let escape = "\u{1B}"

    /// A journal whose every string holds an ESC (and the change id a colour sequence).
    func sandboxWithHostileJournal(links: Bool = true) throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let line =
            #"{"time":"2026-11-23T19:00:41Z","change":"c\u001b[31mX\u202e","key":"blueText","old":null,"new":"on","#
            + #""origin":"cl\u001bi","user":"q\u001ba","pid":7,"command":"flagstaff\u001b set","profile":"p\u001b","#
            + (links ? #""undoes":"u\u001b[2J","redoes":"r\u009b"}"# : #""profile2":1}"#)
        try sandbox.write("overrides.json.history.jsonl", line + "\n")
        return sandbox
    }

    @Test func textAndJSONHistoryEscapeEveryField() async throws {
        let sandbox = try sandboxWithHostileJournal()
        for arguments in [["history"], ["history", "--json"]] {
            let result = try await sandbox.runWithStore(arguments)
            #expect(result.status == 0, "\(result)")
            #expect(!result.standardOutput.contains(Self.escape), "\(arguments): \(result)")
            #expect(!result.standardOutput.contains("\u{9B}"), "\(arguments): \(result)")
            #expect(!result.standardOutput.contains("\u{202E}"), "\(arguments): \(result)")
        }
        let text = try await sandbox.runWithStore(["history"])
        #expect(text.standardOutput.contains(#"[c\u{1B}[31mX\u{202E}]"#), "\(text)")
        #expect(text.standardOutput.contains(#"of u\u{1B}[2J"#), "\(text)")
        let json = try await sandbox.runWithStore(["history", "--json"])
        #expect(json.standardOutput.contains(#""id":"c\u001B[31mX\u202E""#), "\(json)")
    }

    @Test func undoEscapesTheChangeItUndoes() async throws {
        let sandbox = try sandboxWithHostileJournal(links: false)
        let undo = try await sandbox.runWithStore(["undo"])
        #expect(undo.status == 0, "\(undo)")
        #expect(!undo.standardOutput.contains(Self.escape), "\(undo)")
        #expect(
            undo.standardOutput.contains(#"undid the cl\u{1B}i change c\u{1B}[31mX\u{202E} by q\u{1B}a"#), "\(undo)")
    }
}
