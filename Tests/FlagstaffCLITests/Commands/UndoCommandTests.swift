import Flagstaff
import Foundation
import Testing

@Suite("flagstaff undo and redo")
struct UndoCommandTests {
    @Test func undoRevertsTheLatestChangeAndRedoReappliesIt() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        #expect(try await sandbox.run(["set", "blueText", "off"]).status == 0)
        let undo = try await sandbox.run(["undo"])
        #expect(undo.status == 0, "\(undo)")
        #expect(undo.standardOutput.contains("undid the cli change"))
        #expect(undo.standardOutput.contains("    blueText: off → on"))
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
        let redo = try await sandbox.run(["redo", "--json"])
        #expect(redo.status == 0, "\(redo)")
        let object = try sandbox.jsonObject(redo)
        #expect(object["action"] as? String == "redo")
        #expect((object["changes"] as? [[String: Any]])?.first?["to"] as? String == "off")
        #expect(try sandbox.storedOverrides() == ["blueText": "off"])
        let history = try sandbox.jsonObject(try await sandbox.run(["history", "--json"]))
        #expect(
            (history["changes"] as? [[String: Any]])?.compactMap { $0["origin"] as? String } == [
                "redo", "undo", "cli", "cli",
            ])
    }

    @Test func nothingToUndoIsAFailure() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["undo"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("nothing to undo"), "\(result)")
    }

    @Test func undoRefusesToClobberALaterChangeAndNamesIt() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "blueText", "on"]).status == 0)
        _ = try FileOverrideStore(url: sandbox.storeURL, journal: nil).write(["blueText": .set(.off)])
        let result = try await sandbox.run(["undo"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("blueText was changed outside the history"), "\(result)")
        #expect(try sandbox.storedOverrides() == ["blueText": "off"])
    }
}
