import Flagstaff
import Foundation
import Testing

@testable import FlagstaffConsole

/// The profile picker (`p`): each profile with its diff against the store, Enter applies it in one write (one
/// undo step, journaled as `profile`), `R` switches to replace, Esc closes, unreadable profiles are listed.
@Suite struct ConsoleProfilePickerTests {
    /// A file store in a fresh directory, its registry, and its profiles folder (`overrides.profiles/`).
    final class Fixture: Sendable {
        let directory: URL
        let url: URL
        let registry: AnyFeatureRegistry
        let library: ProfileLibrary

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-profiles-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            url = directory.appendingPathComponent("overrides.json")
            registry = try makeRegistry(store: FileOverrideStore(url: url))
            library = ProfileLibrary(folder: ProfileLibrary.defaultFolder(forStore: url))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        func write(profile name: String, _ text: String) throws {
            try FileManager.default.createDirectory(at: library.folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: library.folder.appendingPathComponent(name + ".json"))
        }

        /// A state and the console's own runner (profiles beside the store), with the console opened.
        func open(width: Int = 100, height: Int = 30) -> (ConsoleHarness, ConsoleEffectRunner) {
            let state = ConsoleHarness(registry: registry, width: width, height: height)
            return (state, ConsoleEffectRunner(registry: registry, terminal: ScriptedTerminal(events: [])))
        }
    }

    @Test func pShowsEachProfileWithWhatApplyingItWouldChange() throws {
        let fixture = try Fixture()
        try fixture.registry.setOverrides(["blueText": .enabled, "list.compactRows": .enabled])
        try fixture.write(profile: "checkout", #"{"version":1,"overrides":{"blueText":"off","list.compactRows":"on"}}"#)
        try fixture.write(profile: "smoke", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }

        try runner.send(.key(.character("p")), to: &state)
        #expect(state.mode.kind == .profiles)
        let screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "Profiles · merge") >= 0)
        #expect(screen.row(containing: "checkout  1 change") >= 0)
        #expect(screen.row(containing: "smoke     no changes") >= 0)
        #expect(screen.row(containing: "Applying checkout changes:") >= 0)
        #expect(screen.row(containing: "blueText  ON → OFF") >= 0)
        // list.compactRows already holds the profile's value: not a change.
        #expect(screen.row(containing: "list.compactRows  ON") < 0)

        try runner.send(.key(.down), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Applying smoke changes nothing.") >= 0)
    }

    @Test func theBoxKeepsItsSizeAndPlaceWhileTheHighlightMoves() throws {
        let fixture = try Fixture()
        try fixture.write(
            profile: "checkout-with-a-long-name",
            #"{"version":1,"overrides":{"blueText":"on","list.compactRows":"on","moments.isRoundedAvatar":"off"}}"#)
        try fixture.write(profile: "smoke", #"{"version":1,"overrides":{}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        try runner.send(.key(.character("p")), to: &state)
        /// The rows and columns of the box's corners.
        func corners() -> [Int] {
            let screen = ConsoleLayout.render(state)
            guard let top = screen.find("┌"), let bottom = screen.find("┘") else { return [] }
            return [top.row, top.column, bottom.row, bottom.column]
        }
        let first = corners()
        #expect(first.count == 4)
        try runner.send(.key(.down), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Applying smoke changes nothing.") >= 0)
        #expect(corners() == first, "the box did not move or resize")
        try runner.send(.key(.up), to: &state)
        #expect(corners() == first)
    }

    @Test func sSavesTheStoresOverridesAsANewProfile() throws {
        let fixture = try Fixture()
        try fixture.registry.setOverrides(["blueText": .enabled, "list.compactRows": .disabled])
        try fixture.write(profile: "smoke", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        try runner.send(.key(.character("p")), to: &state)
        try runner.send(.key(.character("s")), to: &state)
        #expect(state.mode.kind == .profileName)
        for character in "smoke" { try runner.send(.key(.character(character)), to: &state) }
        var screen = ConsoleLayout.render(state)
        #expect(screen.find("Save as: smoke▏  Enter save  Esc cancel") != nil, "\(screen.text)")
        // A name already taken is refused: nothing is overwritten.
        try runner.send(.key(.enter), to: &state)
        #expect(state.mode.kind == .profileName)
        #expect(state.statusMessage == "A profile named smoke exists: delete it first (d) or choose another name")
        try runner.send(.key(.backspace), to: &state)
        for character in "y-2" { try runner.send(.key(.character(character)), to: &state) }
        try runner.send(.key(.enter), to: &state)
        #expect(state.mode.kind == .profiles)
        #expect(state.statusMessage == "Saved profile smoky-2: 2 overrides")
        let saved = try fixture.library.load("smoky-2")
        #expect(saved.overrides == ["blueText": .on, "list.compactRows": .off])
        screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "smoky-2") >= 0, "listed at once: \(screen.text)")
        #expect(screen.row(containing: "Saved profile smoky-2: 2 overrides") >= 0)
        // Esc while naming goes back to the profiles without saving.
        try runner.send(.key(.character("s")), to: &state)
        try runner.send(.key(.character("x")), to: &state)
        try runner.send(.key(.escape), to: &state)
        #expect(state.mode.kind == .profiles)
        #expect(try fixture.library.names() == ["smoke", "smoky-2"])
    }

    @Test func dDeletesTheHighlightedProfileAfterAskingAndAnyOtherKeyKeepsIt() throws {
        let fixture = try Fixture()
        try fixture.write(profile: "checkout", #"{"version":1,"overrides":{"blueText":"off"}}"#)
        try fixture.write(profile: "smoke", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        try runner.send(.key(.character("p")), to: &state)
        try runner.send(.key(.down), to: &state)
        try runner.send(.key(.character("d")), to: &state)
        #expect(state.mode.kind == .profileDelete)
        #expect(ConsoleLayout.render(state).find("Delete smoke? y yes  any other key no") != nil)
        try runner.send(.key(.character("n")), to: &state)
        #expect(state.mode.kind == .profiles)
        #expect(state.statusMessage == "Kept smoke")
        #expect(try fixture.library.names() == ["checkout", "smoke"])
        try runner.send(.key(.character("d")), to: &state)
        try runner.send(.key(.character("y")), to: &state)
        #expect(state.statusMessage == "Deleted profile smoke")
        #expect(try fixture.library.names() == ["checkout"])
        #expect(state.profilePicker?.selectedEntry?.name == "checkout")
    }

    @Test func enterAppliesInOneWriteThatIsOneUndoStep() throws {
        let fixture = try Fixture()
        try fixture.write(
            profile: "checkout",
            #"{"version":1,"overrides":{"blueText":"on","list.compactRows":"on","moments.isRoundedAvatar":"off"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }

        try runner.send(.key(.character("p")), to: &state)
        try runner.send(.key(.enter), to: &state)
        #expect(state.mode.kind == .list)
        #expect(state.profilePicker == nil)
        #expect(state.pendingWrites.isEmpty)
        #expect(
            try FileOverrideStore(url: fixture.url).load() == [
                "blueText": .on, "list.compactRows": .on, "moments.isRoundedAvatar": .off,
            ])
        #expect(state.counts.overridden == 3)
        #expect(ConsoleLayout.render(state).row(containing: "Profile checkout merged: 3 changes") >= 0)

        let journal = ChangeJournal(layout: StoreLayout.unresolved(fixture.url), options: JournalOptions()).read()
        #expect(journal.changes.count == 1)
        #expect(journal.changes.first?.origin == .profile)
        #expect(journal.changes.first?.profile == "checkout")
        try ChangeHistory(fixture.registry).undo()
        #expect(try FileOverrideStore(url: fixture.url).load() == [:])
    }

    @Test func rSwitchesToReplaceWhichAlsoRemovesTheOtherOverrides() throws {
        let fixture = try Fixture()
        try fixture.registry.setOverrides(["useTabBarNav": .enabled])
        try fixture.write(profile: "only-blue", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }

        try runner.send(.key(.character("p")), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "only-blue  1 change") >= 0)
        try runner.send(.key(.character("R")), to: &state)
        let screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "Profiles · replace") >= 0)
        #expect(screen.row(containing: "only-blue  2 changes") >= 0)
        #expect(screen.row(containing: "useTabBarNav  ON → default") >= 0)

        try runner.send(.key(.enter), to: &state)
        #expect(try FileOverrideStore(url: fixture.url).load() == ["blueText": .on])
        #expect(ConsoleLayout.render(state).row(containing: "Profile only-blue replaced: 2 changes") >= 0)
    }

    @Test func escClosesWithoutApplying() throws {
        let fixture = try Fixture()
        try fixture.write(profile: "checkout", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        for key in [ConsoleKey.escape, .character("q"), .character("p")] {
            var (state, runner) = fixture.open()
            defer { runner.stop() }
            try runner.send(.key(.character("p")), to: &state)
            try runner.send(.key(key), to: &state)
            #expect(state.mode.kind == .list, "\(key)")
            #expect(ConsoleLayout.render(state).row(containing: "Profiles") < 0)
        }
        #expect(try FileOverrideStore(url: fixture.url).load() == [:])
    }

    @Test func malformedProfilesAreListedWithTheirProblemAndNotApplied() throws {
        let fixture = try Fixture()
        try fixture.write(profile: "broken", #"{"version":1,"overrides":["blueText"]}"#)
        try fixture.write(profile: "good", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }

        try runner.send(.key(.character("p")), to: &state)
        var screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "broken  unreadable") >= 0)
        #expect(screen.row(containing: "Cannot be read:") >= 0)
        #expect(screen.row(containing: "$.overrides") >= 0)

        try runner.send(.key(.enter), to: &state)
        screen = ConsoleLayout.render(state)
        #expect(state.mode.kind == .profiles)  // stays open: another profile can be picked
        #expect(screen.row(containing: "Cannot apply broken:") >= 0)
        #expect(try FileOverrideStore(url: fixture.url).load() == [:])
    }

    @Test func aProfileWithAnInvalidValueIsRefusedByTheWriteAndChangesNothing() throws {
        let fixture = try Fixture()
        try fixture.write(profile: "typo", #"{"version":1,"overrides":{"blueText":5,"list.compactRows":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }
        try runner.send(.key(.character("p")), to: &state)
        try runner.send(.key(.enter), to: &state)
        #expect(state.pendingWrites.isEmpty)
        #expect(ConsoleLayout.render(state).row(containing: "Could not save the change:") >= 0)
        #expect(try FileOverrideStore(url: fixture.url).load() == [:])
    }

    @Test func unknownKeysAreMarkedAndStored() throws {
        let fixture = try Fixture()
        try fixture.write(profile: "legacy", #"{"version":1,"overrides":{"gone.flag":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }

        try runner.send(.key(.character("p")), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "gone.flag  default → ON  (not in this registry)") >= 0)
        try runner.send(.key(.enter), to: &state)
        #expect(try FileOverrideStore(url: fixture.url).load() == ["gone.flag": .on])
    }

    @Test func anEmptyFolderAndAStoreWithoutOneSaySo() throws {
        let fixture = try Fixture()
        var (state, runner) = fixture.open()
        try runner.send(.key(.character("p")), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "No profiles in") >= 0)
        #expect(ConsoleLayout.render(state).row(containing: "s saves the current overrides as one") >= 0)
        try runner.send(.key(.character("s")), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "Save as: ") >= 0)
        runner.stop()

        let registry = try makeRegistry()
        var memoryState = ConsoleHarness(registry: registry, width: 100, height: 30)
        let memoryRunner = ConsoleEffectRunner(registry: registry, terminal: ScriptedTerminal(events: []))
        defer { memoryRunner.stop() }
        try memoryRunner.send(.key(.character("p")), to: &memoryState)
        #expect(ConsoleLayout.render(memoryState).row(containing: "No profiles folder") >= 0)
        try memoryRunner.send(.key(.enter), to: &memoryState)
        #expect(memoryState.mode.kind == .profiles)
    }

    @Test func theDiffFollowsChangesMadeWhileThePickerIsOpen() throws {
        let fixture = try Fixture()
        try fixture.write(profile: "checkout", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        var (state, runner) = fixture.open()
        defer { runner.stop() }

        try runner.send(.key(.character("p")), to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "checkout  1 change") >= 0)
        try fixture.registry.setOverrides(["blueText": .enabled])  // another writer
        try runner.sendQueuedEvents(to: &state)
        #expect(ConsoleLayout.render(state).row(containing: "checkout  no changes") >= 0)
    }

    @Test func aLongListScrollsToKeepTheHighlightInView() throws {
        let fixture = try Fixture()
        for index in 0..<30 {
            try fixture.write(profile: String(format: "p%02d", index), #"{"version":1,"overrides":{"blueText":"on"}}"#)
        }
        var (state, runner) = fixture.open(width: 60, height: 16)
        defer { runner.stop() }
        try runner.send(.key(.character("p")), to: &state)
        for _ in 0..<29 { try runner.send(.key(.character("j")), to: &state) }
        let screen = ConsoleLayout.render(state)
        #expect(screen.row(containing: "▸ p29") >= 0)
        #expect(screen.row(containing: "Applying p29 changes:") >= 0)
        try runner.send(.key(.character("j")), to: &state)
        #expect(state.profilePicker?.selected == 29)
    }
}
