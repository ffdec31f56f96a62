import Foundation
import Testing

/// `redo`, `undo` and `bisect reset` write values read from files a person may have edited (the journal, the
/// bisect state): each is checked against its member as `set` checks it, and refused naming the key and value.
@Suite struct HandEditedValueTests {
    @Test func redoOfAChangeWhoseValueIsOutOfRangeIsRefused() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{}}"#)
        try sandbox.write(
            "overrides.json.history.jsonl",
            #"{"time":"2026-11-23T19:00:41Z","change":"c1","key":"maxItems","old":null,"new":500,"origin":"cli","user":"qa","pid":7,"command":"x"}"#
                + "\n"
                + #"{"time":"2026-11-23T19:00:42Z","change":"c2","key":"maxItems","old":500,"new":null,"origin":"undo","user":"qa","pid":7,"command":"x","undoes":"c1"}"#
                + "\n")
        let before = sandbox.storeBytes()
        let redo = try await sandbox.runWithStore(["redo"])
        #expect(redo.status == 1, "\(redo)")
        #expect(
            redo.standardError.contains(
                #"invalid value 500 for "maxItems": must be 1…100 (redoing the cli change c1 by qa"#), "\(redo)")
        #expect(redo.standardError.contains("nothing was changed"), "\(redo)")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func undoBackToAValueNoMemberAcceptsIsRefused() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"theme":"dark"}}"#)
        try sandbox.write(
            "overrides.json.history.jsonl",
            #"{"time":"2026-11-23T19:00:41Z","change":"c1","key":"theme","old":"sepia","new":"dark","origin":"cli","user":"qa","pid":7,"command":"x"}"#
                + "\n")
        let undo = try await sandbox.runWithStore(["undo"])
        #expect(undo.status == 1, "\(undo)")
        #expect(undo.standardError.contains(#"invalid value "sepia" for "theme""#), "\(undo)")
        #expect(try sandbox.storedJSON() == ["theme": #""dark""#])
    }

    @Test func bisectResetOfAHandEditedStateFileIsRefused() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "maxItems", "50", "blueText", "on"]).status == 0)
        #expect(try await sandbox.runWithStore(["bisect", "start"]).status == 0)
        let stateURL = URL(fileURLWithPath: sandbox.storePath + ".bisect.json")
        let state = try String(contentsOf: stateURL, encoding: .utf8)
        try state.replacingOccurrences(of: #""maxItems": 50"#, with: #""maxItems": 500"#)
            .write(to: stateURL, atomically: true, encoding: .utf8)
        let before = sandbox.storeBytes()
        let reset = try await sandbox.runWithStore(["bisect", "reset"])
        #expect(reset.status == 1, "\(reset)")
        #expect(
            reset.standardError.contains(
                #"invalid value 500 for "maxItems": must be 1…100 (restoring the values from before the bisect); nothing was changed"#
            ), "\(reset)")
        #expect(sandbox.storeBytes() == before)
        #expect(FileManager.default.fileExists(atPath: stateURL.path), "the session is still there")
    }

    @Test func bisectAnswerApplyingAHandEditedValueIsRefused() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "maxItems", "50", "blueText", "on"]).status == 0)
        // Step 1 tests blueText alone (key order) and removes maxItems; 'good' applies maxItems next, from the
        // state file. ('bad' applies only values under test, which must match the store.)
        #expect(try await sandbox.runWithStore(["bisect", "start"]).status == 0)
        let stateURL = URL(fileURLWithPath: sandbox.storePath + ".bisect.json")
        let state = try String(contentsOf: stateURL, encoding: .utf8)
        let edited = state.replacingOccurrences(of: #""maxItems": 50"#, with: #""maxItems": 500"#)
        #expect(edited != state, "the state file holds the value to edit")
        try edited.write(to: stateURL, atomically: true, encoding: .utf8)
        let before = sandbox.storeBytes()
        let good = try await sandbox.runWithStore(["bisect", "good"])
        #expect(good.status == 1, "\(good)")
        #expect(
            good.standardError.contains(
                #"invalid value 500 for "maxItems": must be 1…100 (applying the next bisect step); nothing was changed"#
            ), "\(good)")
        #expect(sandbox.storeBytes() == before)
        #expect(try String(contentsOf: stateURL, encoding: .utf8) == edited, "the session is left as it was")
    }
}
