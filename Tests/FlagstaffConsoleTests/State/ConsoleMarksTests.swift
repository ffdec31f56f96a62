import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffConsole

/// Marks (`m`, `M`, `Esc`) and `o`/`x`/`r` on every marked flag as one store write.
@Suite struct ConsoleMarksTests {
    /// The demo registry with `extra` more root flags `bulk.0`, `bulk.1`, … (listed after the demo's).
    func registry(extra: Int = 0, store: any OverrideStore = InMemoryOverrideStore()) throws -> AnyFeatureRegistry {
        try makeRegistry(
            store: store,
            extraFlags: (0..<extra).map { RegistryManifest.Flag(key: "bulk.\($0)", default: false) })
    }

    @Test func mMarksTheRowMovesDownAndTheHeaderCountsMarks() throws {
        var state = ConsoleHarness(registry: try registry(), width: 100, height: 30)
        #expect(state.selectedKey == "blueText")
        press(.character("m"), into: &state)
        #expect(state.markedKeys == ["blueText"])
        #expect(state.cursor == 1)
        var screen = ConsoleLayout.render(state)
        let row = screen.row(containing: "Blue Text")
        #expect(screen.text(row: row).hasPrefix(" ✓ Blue Text"))
        #expect(screen.find("1 marked") != nil)
        // The mark column of an unmarked row is blank.
        #expect(screen.text(row: row + 1).hasPrefix("   "))

        press(.up, .character("m"), into: &state)
        #expect(state.marks.isEmpty)
        screen = ConsoleLayout.render(state)
        #expect(screen.find("marked") == nil)
        #expect(!screen.text(row: row).contains("✓"))
    }

    @Test func marksShowAsAsteriskWithoutUTF8() throws {
        var state = ConsoleHarness(registry: try registry(), width: 100, height: 30, asciiOnly: true)
        press(.character("m"), into: &state)
        let screen = ConsoleLayout.render(state)
        #expect(screen.text(row: screen.row(containing: "Blue Text")).hasPrefix(" * Blue Text"))
        #expect(screen.find("1 marked") != nil)
    }

    @Test func mOnAGroupRowSaysMarksAreForFlags() throws {
        var state = ConsoleHarness(registry: try registry(), width: 100, height: 30)
        let group = try #require(state.rows.firstIndex { if case .group = $0 { true } else { false } })
        state.move(to: group)
        press(.character("m"), into: &state)
        #expect(state.marks.isEmpty)
        #expect(state.statusMessage == "Marks are for flags (this row is a group)")
    }

    @Test func bigMMarksEveryListedFlagOnly() throws {
        var state = ConsoleHarness(registry: try registry(), width: 100, height: 30)
        press(.character("/"), into: &state)
        type("avatar", into: &state)
        press(.enter, into: &state)
        let listed = Set(state.rows.compactMap(\.key))
        #expect(listed == ["moments.isRoundedAvatar", "list.cells.avatarBadge"])
        press(.character("M"), into: &state)
        #expect(state.markedKeys == listed)
        #expect(state.statusMessage?.hasPrefix("Marked 2 listed flags") == true)
        #expect(ConsoleLayout.render(state).find("2 marked") != nil)

        // In the tree, every flag row (groups are not marked).
        press(.escape, .character("M"), into: &state)
        #expect(state.marks.count == 7)
    }

    @Test func escClearsTheSearchFirstThenTheMarks() throws {
        var state = ConsoleHarness(registry: try registry(), width: 100, height: 30)
        press(.character("/"), into: &state)
        type("list", into: &state)
        press(.enter, .character("M"), into: &state)
        let marked = state.marks
        #expect(marked.count == 3)
        press(.escape, into: &state)
        #expect(state.query.isEmpty)
        #expect(state.marks == marked)
        #expect(ConsoleLayout.render(state).find("3 marked · Esc again clears the marks") != nil)
        press(.escape, into: &state)
        #expect(state.marks.isEmpty)
        #expect(state.statusMessage == "Cleared 3 marks")
        // With neither, Esc does nothing (and never quits).
        #expect(press(.escape, into: &state).isEmpty)
        #expect(state.mode.kind == .list)
    }

    @Test func xWithMarksForcesEveryMarkedFlagOffInOneWrite() throws {
        let store = CountingStore()
        let registry = try registry(store: store)
        var state = ConsoleHarness(registry: registry, width: 100, height: 30)
        press(.character("m"), into: &state)  // blueText
        state.select(key: "moments.isRoundedAvatar")
        press(.character("m"), into: &state)
        state.select(key: "list.infiniteScroll")
        press(.character("m"), into: &state)
        state.select(key: "list.compactRows")  // the selected row is not marked: not changed
        let effects = press(.character("x"), into: &state)
        #expect(
            bulkWrite(effects, state) == .init(.off, ["blueText", "moments.isRoundedAvatar", "list.infiniteScroll"]))
        let writes = store.writes
        try apply(effects, to: &state)
        #expect(store.writes == writes + 1)
        for key in ["blueText", "moments.isRoundedAvatar", "list.infiniteScroll"] {
            // Every marked flag is forced, Blue Text too though it is off by its default: `x` forces OFF.
            #expect(registry.flag(forKey: key)?.override == .disabled, "\(key)")
        }
        #expect(registry.flag(forKey: "list.compactRows")?.override == .featureDefault)
        #expect(state.statusMessage == "Forced OFF 3 marked flags · u undoes it")
        let screen = ConsoleLayout.render(state)
        #expect(screen.text(row: 29).contains("Forced OFF 3 marked flags · u undoes it"))
        // Marks stay, so the next key can act on the same flags.
        #expect(state.marks.count == 3)
        try apply(press(.character("r"), into: &state), to: &state)
        #expect(registry.storedOverrides.isEmpty)
        #expect(state.statusMessage == "Reset 3 marked flags to the default · u undoes it")
    }

    /// `x` on one flag and `x` on the same flag marked write the same store file: the console states one policy for
    /// both (every value forced as asked), so a flag off by its default is forced OFF either way.
    @Test func forcingOneFlagAndTheSameFlagMarkedLeaveTheSameFile() throws {
        let folder = TestDirectory.make("console-marks")
        func forcedOff(marked: Bool, file name: String) throws -> Data {
            let url = folder.appendingPathComponent(name)
            var state = ConsoleHarness(
                registry: try registry(store: try FileOverrideStore(url: url, journal: nil)), width: 100, height: 30)
            #expect(state.selectedKey == "blueText")
            if marked { press(.character("m"), .up, into: &state) }
            try apply(press(.character("x"), into: &state), to: &state)
            return try Data(contentsOf: url)
        }
        let selected = try forcedOff(marked: false, file: "selected.json")
        let marked = try forcedOff(marked: true, file: "marked.json")
        #expect(selected == marked)
        #expect(String(decoding: marked, as: UTF8.self).contains(#""blueText": "off""#))
    }

    @Test func moreThanTwentyMarkedFlagsAskFirst() throws {
        let registry = try registry(extra: 20)
        var state = ConsoleHarness(registry: registry, width: 100, height: 30)
        press(.character("M"), into: &state)
        #expect(state.marks.count == 27)
        #expect(press(.character("o"), into: &state).isEmpty)
        #expect(state.mode.kind == .confirmBulk)
        #expect(ConsoleLayout.render(state).find("Force ON 27 marked flags?  y yes  n no") != nil)
        // Any other key: no, nothing written.
        #expect(press(.character("n"), into: &state).isEmpty)
        #expect(state.mode.kind == .list)
        #expect(state.statusMessage == "Cancelled: nothing was changed")
        #expect(registry.storedOverrides.isEmpty)

        press(.character("o"), into: &state)
        let effects = press(.character("y"), into: &state)
        #expect(effects.count == 1)
        try apply(effects, to: &state)
        // Members on by their default are forced too.
        #expect(registry.allFeatures.contains { AnyFeatureRegistry.declarationGives(.on, to: $0) })
        #expect(registry.storedOverrides.count == 27)
        #expect(state.mode.kind == .list)
        #expect(state.statusMessage == "Forced ON 27 marked flags · u undoes it")
    }

    @Test func twentyMarkedFlagsApplyWithoutAsking() throws {
        var state = ConsoleHarness(registry: try registry(extra: 13), width: 100, height: 30)
        press(.character("M"), into: &state)
        #expect(state.marks.count == 20)
        #expect(press(.character("x"), into: &state).count == 1)
        #expect(state.mode.kind == .list)
    }

    @Test func markedSettingsAreSkippedByOnOffAndResetByR() throws {
        let (features, initial) = typedState()
        var state = initial
        try features.setOverrideValues(["maxItems": .set(OverrideValue(json: "50")), "compact": .set(.off)])
        press(.character("M"), into: &state)
        #expect(state.marks.count == 7)
        let effects = press(.character("o"), into: &state)
        // The flag and the on/off setting; the five other settings are left alone.
        #expect(bulkWrite(effects, state) == .init(.on, ["blueText", "compact"]))
        #expect(state.statusMessage == nil, "said once saved")
        try apply(effects, to: &state)
        #expect(state.statusMessage == "Forced ON 2 marked flags · 5 settings skipped (not on/off) · u undoes it")
        #expect(features.maxItems.value == 50)
        // The Boolean setting takes the flag word it was written with (the write does not check it again).
        #expect(features.compact.value == true && features.blueText.enabled)

        let reset = press(.character("r"), into: &state)
        let write = try #require(bulkWrite(reset, state))
        #expect(write.keys.count == 7)
        #expect(write.value == nil)
        try apply(reset, to: &state)
        #expect(features.storedOverrides.isEmpty)
    }

    @Test func onlySettingsMarkedSaysThereIsNothingToForce() throws {
        let (_, initial) = typedState(row: TypedRow.maxItems)
        var state = initial
        press(.character("m"), into: &state)
        #expect(press(.character("x"), into: &state).isEmpty)
        #expect(state.statusMessage == "Nothing to change: 1 setting skipped (not on/off)")
    }

    @Test func flagsFixedAtLaunchAreLeftAlone() throws {
        let features = FeatureRegistry(
            TypedConsoleFeatures(), store: InMemoryOverrideStore(),
            options: RegistryOptions(
                storeWatchInterval: nil,
                launchOverrides: LaunchOverrides(
                    environment: ["FLAGSTAFF_OVERRIDES": "blueText=on"], arguments: [])))
        var state = ConsoleHarness(registry: features, width: 100, height: 30)
        press(.character("M"), into: &state)
        let effects = press(.character("x"), into: &state)
        #expect(bulkWrite(effects, state) == .init(.off, ["compact"]))
        try apply(effects, to: &state)
        // Compact is off by its default, and forced OFF all the same.
        #expect(features.compact.overriddenValue == false)
        #expect(
            state.statusMessage
                == "Forced OFF 1 marked flag · 5 settings skipped (not on/off), 1 skipped (fixed at launch) · u undoes it"
        )
    }
}

extension ConsoleMarksTests {
    /// A bulk write effect by key.
    struct BulkWrite: Equatable {
        var value: OverrideValue?
        var keys: Set<String>
        init(_ value: OverrideValue?, _ keys: Set<String>) { (self.value, self.keys) = (value, keys) }
    }

    /// The one bulk write `effects` hold, by key, or `nil` when they hold anything else.
    func bulkWrite(_ effects: [ConsoleEffect], _ state: ConsoleHarness) -> BulkWrite? {
        guard effects.count == 1, case .write(.members(let members, let value)) = effects[0] else { return nil }
        return BulkWrite(value.value, Set(members.ordinals.compactMap(state.source.key(atOrdinal:))))
    }

    @Test func ctrlCInTheBulkQuestionQuits() throws {
        var state = ConsoleHarness(registry: try registry(extra: 20), width: 100, height: 30)
        press(.character("M"), .character("x"), into: &state)
        #expect(state.mode.kind == .confirmBulk)
        #expect(press(.control("c"), into: &state) == [.quit(.notNeeded, signal: nil)])
    }

    @Test func aBulkWriteWithInvalidValuesNamesTheFirstInKeyOrderAndWritesNothing() throws {
        let (features, _) = typedState()
        let changes: [String: OverrideEdit] = [
            "theme": .set(try OverrideValue(json: #""neon""#)), "maxItems": .set(try OverrideValue(json: "500")),
            "compact": .set(.on), "blueText": .set(try OverrideValue(json: "3")),
        ]
        let error = #expect(throws: InvalidOverrideValue.self) { try features.setOverrideValues(changes) }
        #expect(error?.key == "blueText")
        #expect(features.storedOverrides.isEmpty)
    }
}

/// An in-memory store that counts its writes.
final class CountingStore: OverrideStore, Sendable {
    private let inner = InMemoryOverrideStore()
    private let count = AnnotatedMutex(0)

    var writes: Int { count.withLock { $0 } }

    func load() throws -> [String: OverrideValue] { inner.load() }

    func write(_ change: OverrideChange) throws -> StoreSnapshot {
        count.withLock { $0 += 1 }
        return inner.write(change)
    }
}
