import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

@Suite struct HistoryUndoTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }

    @Test func undoRevertsTheLatestChangeAsOneStepAndRedoReappliesIt() throws {
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["a": .set(.on)])
        _ = try store.write(["a": .set(.off), "b": .set(.on), "c": .remove])
        let undone = try store.undo()
        #expect(undone.target.keys == ["a", "b"])
        #expect(try store.load() == ["a": .on])
        let redone = try store.redo()
        #expect(redone.target.id == undone.target.id)
        #expect(try store.load() == ["a": .off, "b": .on])
        // Undo twice walks back through both changes; a third has nothing left.
        _ = try store.undo()
        _ = try store.undo()
        #expect(try store.load() == [:])
        let nothing = #expect(throws: HistoryError.self) { try store.undo() }
        #expect(nothing?.isNothingToDo == true)
        // Redo goes forward in the order the undos went back.
        _ = try store.redo()
        #expect(try store.load() == ["a": .on])
        _ = try store.redo()
        #expect(try store.load() == ["a": .off, "b": .on])
        #expect((#expect(throws: HistoryError.self) { try store.redo() })?.isNothingToDo == true)
    }

    /// A writer killed while appending a large change's lines (the store file already holds the whole change)
    /// leaves only some of them; undoing those alone would make a state that never existed.
    @Test func aChangeJournaledOnlyInPartIsNotUndone() throws {
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["before": .set(.on)])
        let keys = (0..<1_000).map { "k\($0)" }
        _ = try store.write(
            OverrideChange(Dictionary(uniqueKeysWithValues: keys.map { ($0, OverrideEdit.set(.on)) })))
        let journal = try #require(try store.journal())
        let lines = try String(contentsOf: journal.url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1_001)
        #expect(lines[1].contains(#""keys":1000"#) && !lines[0].contains(#""keys""#))
        // 1 line of the first change and 400 of the second, then a torn line, as `kill -9` leaves them.
        let kept = lines.prefix(401).joined(separator: "\n") + "\n" + lines[401].prefix(30)
        try Data(kept.utf8).write(to: journal.url)

        let change = try #require(journal.read().changes.last)
        #expect(!change.isFullyJournaled && change.entries.count == 400 && change.writtenKeyCount == 1_000)
        let refusal = #expect(throws: HistoryError.self) { try store.undo() }
        #expect(
            refusal?.description.contains("the journal holds 400 of its 1000 keys") == true,
            "\(String(describing: refusal))")
        #expect(try store.load().count == 1_001, "nothing was changed")

        // A later change is journaled whole (the torn line is cut first) and undoes as before.
        _ = try store.write(["after": .set(.on)])
        _ = try store.undo()
        #expect(try store.load()["after"] == nil)
        #expect((#expect(throws: HistoryError.self) { try store.undo() })?.isNothingToDo == false)
    }

    @Test func undoAndRedoAreJournaledWithTheChangeTheyRevert() throws {
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["a": .set(.on)])
        let undone = try store.undo()
        _ = try store.redo()
        let changes = try #require(try store.journal()).read().changes
        #expect(changes.map(\.origin) == [.app, .undo, .redo])
        #expect(changes[1].undoes == undone.target.id && changes[1].id == undone.change)
        #expect(changes[2].redoes == undone.target.id)
        #expect(changes[1].entries[0].old == .on && changes[1].entries[0].new == nil)
    }

    @Test func aNewChangeAfterAnUndoClearsRedo() throws {
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["a": .set(.on)])
        _ = try store.undo()
        _ = try store.write(["b": .set(.on)])
        #expect((#expect(throws: HistoryError.self) { try store.redo() })?.isNothingToDo == true)
        _ = try store.undo()
        #expect(try store.load() == [:], "the undo after the new change reverts the new change")
    }

    @Test func undoRefusesToClobberAChangeMadeOutsideTheHistory() throws {
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["a": .set(.on), "b": .set(.on)])
        _ = try FileOverrideStore(url: file, journal: nil).write(["b": .set(.off)])
        let error = #expect(throws: HistoryError.self) { try store.undo() }
        #expect(error?.conflictingKey == "b")
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("b was changed outside the history (now \"off\")"), "\(message)")
        #expect(message.contains("nothing was changed"))
        #expect(try store.load() == ["a": .on, "b": .off], "nothing was changed")
    }

    @Test func undoRefusesNamingTheLaterChangeThatSetTheKey() throws {
        // A redo of a change that has rotated out of the journal: its lines are the only record of `k`'s value.
        let store = try FileOverrideStore(url: file)
        _ = try store.write(["k": .set(.on)])
        let journal = try #require(try store.journal())
        let later = JournalEntry(
            time: Date(), change: "later", key: "k", old: .on, new: .off, origin: .redo, user: "someone",
            pid: 4242, command: "flagstaff redo", redoes: "rotated-away")
        try journal.append([later])
        _ = try FileOverrideStore(url: file, journal: nil).write(["k": .set(.off)])
        let error = #expect(throws: HistoryError.self) { try store.undo() }
        let message = error.map { "\($0)" } ?? ""
        #expect(
            message.contains("k was changed since by the redo change later by someone (pid 4242, flagstaff redo)"),
            "\(message)")
        #expect(try store.load() == ["k": .off])
    }

    @Test func plannerTreatsUndoneChangesAsNotInForce() {
        func change(_ id: String, _ key: String, _ old: OverrideValue?, _ new: OverrideValue?, undoes: String? = nil)
            -> HistoryChange
        {
            HistoryChange(
                id: id,
                entries: [
                    JournalEntry(
                        time: Date(), change: id, key: key, old: old, new: new, origin: .cli, user: "u", pid: 1,
                        command: "", undoes: undoes)
                ])
        }
        let history = [
            change("A", "a", nil, .on), change("B", "b", nil, .on), change("U", "b", .on, nil, undoes: "B"),
        ]
        #expect(UndoPlanner.undo(history)?.target.id == "A")
        #expect(UndoPlanner.undo(history)?.changes == ["a": OverrideEdit.remove])
        #expect(UndoPlanner.redo(history)?.target.id == "B")
        #expect(UndoPlanner.redo(history)?.expected == ["b": OverrideEdit.remove])
        #expect(UndoPlanner.undo([]) == nil && UndoPlanner.redo(history.dropLast().map { $0 }) == nil)
    }

    @Test func theRegistryUndoesAndItsMembersFollow() throws {
        let registry = FeatureRegistry(
            AppFeatures(), store: try FileOverrideStore(url: file), options: RegistryOptions(storeWatchInterval: nil))
        registry.blueText.override = .enabled
        registry.blueText.override = .disabled
        let outcome = try ChangeHistory(registry).undo()
        #expect(registry.blueText.override == .enabled)
        #expect(outcome.target.keys == [registry.blueText.key])
        try ChangeHistory(registry).redo()
        #expect(registry.blueText.override == .disabled)
        #expect(throws: HistoryError.self) { try ChangeHistory(FeatureRegistry(AppFeatures())).undo() }
    }
}

@Suite struct HistoryKeyPatternTests {
    @Test func globsMatchWholeKeys() {
        #expect(KeyPattern("checkout.*").matches("checkout.v2"))
        #expect(KeyPattern("checkout.*").matches("checkout.express.enabled"))
        #expect(!KeyPattern("checkout.*").matches("checkoutv2"))
        #expect(KeyPattern("*.v?").matches("checkout.v2") && !KeyPattern("*.v?").matches("checkout.v22"))
        #expect(KeyPattern("blueText").matches("blueText") && !KeyPattern("blue").matches("blueText"))
        #expect(KeyPattern("*").matches("") && KeyPattern("a*b*c").matches("aXXbYYc"))
        #expect(KeyPattern("caf?.on").matches("café.on") && !KeyPattern("caf?.on").matches("cafe\u{301}x.on"))
        #expect(KeyPattern("*é").matches("xé") && !KeyPattern("?").matches("ab"))
    }
}
