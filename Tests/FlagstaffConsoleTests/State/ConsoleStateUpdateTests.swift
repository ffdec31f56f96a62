import Flagstaff
import FlagstaffTestSupport
import Testing

@testable import FlagstaffConsole

/// ``ConsoleState/update(_:)`` against an in-memory flag source: the decisions the run loop used to make.
@Suite struct ConsoleStateUpdateTests {
    /// Twenty flags in three groups (and some at the root); every fifth requires a restart.
    func makeSource() -> FakeFlagSource {
        let groups = ["alpha", "beta", "gamma"]
        var flags: [FakeFlagSource.Flag] = []
        for index in 0..<20 {
            let group: String? = index < 4 ? nil : groups[index % 3]
            let on = index % 2 == 0
            flags.append(
                FakeFlagSource.Flag(
                    key: "flag\(index)", group: group, defaultValue: on, requiresRestart: index % 5 == 0,
                    launchValue: on))
        }
        return FakeFlagSource(flags)
    }

    @Test func forcingOneFlagGoesOneWayAndReadsThatFlagOnce() {
        let source = makeSource()
        var state = ConsoleHarness(source: source)
        state.select(key: "flag5")
        #expect(press(.character("o"), into: &state) == [.write(.values(["flag5": .set(.on)]))])
        let fullReads = source.fullReads
        let readKeys = source.readKeys.count
        // The write lands (the fake stands for the registry) and is reported saved: nothing is asked for.
        source.change("flag5") { $0.override = .enabled }
        #expect(state.state.update(.storeWriteSaved) == [.repaint], "no read asked for")
        // The registry's change: the feed reads the flag once and the state takes it in, asking for nothing.
        let update = state.feed.update(.keys(["flag5"]))
        #expect(state.state.update(.flagsChanged(update)) == [.repaint], "no read asked for")
        #expect(source.fullReads == fullReads, "no whole-registry read for a change of one flag")
        #expect(Array(source.readKeys.dropFirst(readKeys)) == ["flag5"], "that flag, read once")
        #expect(state.counts == ConsoleState.Counts(flags: 20, overridden: 1, pendingRestart: 1))
        let screen = ConsoleLayout.render(state)
        #expect(screen.text(row: screen.row(containing: "flag5")).contains("ON   override"))
        #expect(screen.footerMessage == "flag5: OFF \u{2192} ON")
    }

    @Test func theStateShowsWhatItWasToldNotTheLiveSource() {
        let source = makeSource()
        let state = ConsoleHarness(source: source)
        let before = ConsoleLayout.render(state)
        let row = before.row(containing: "flag0")
        #expect(before.text(row: row).contains("ON   default"))
        // The source changes; no event reaches the state: it, and every frame drawn from it, stay as they were.
        source.change("flag0") { $0.override = .disabled }
        let readKeys = source.readKeys.count
        #expect(ConsoleLayout.render(state) == before)
        #expect(state.counts.overridden == 0)
        #expect(source.readKeys.count == readKeys, "rendering reads nothing")
        // The change, as an event: now it shows.
        var told = state
        told.registryChanged(keys: ["flag0"])
        #expect(ConsoleLayout.render(told).text(row: row).contains("OFF  override"))
        #expect(told.counts.overridden == 1)
    }

    @Test func incrementalRowsAndCountsEqualAFullRebuildAfterAnySequenceOfChanges() {
        var random = SeededRandom(seed: 9)
        for round in 0..<20 {
            let source = makeSource()
            var state = ConsoleHarness(source: source, width: 80, height: 24)
            state.feed.recountAbove = 4
            var added = 0
            for step in 0..<60 {
                switch Int.random(in: 0..<12, using: &random) {
                case 0...3:
                    // Overrides of one to three flags (a key, another process, a remote activation).
                    let keys = Set(
                        (0..<Int.random(in: 1...3, using: &random)).map { _ in
                            source.keys.randomElement(using: &random)!
                        })
                    for key in keys {
                        let override = [OverrideState.enabled, .disabled, .featureDefault].randomElement(
                            using: &random)!
                        source.change(key) { $0.override = override }
                    }
                    _ = state.registryChanged(keys: keys)
                case 4:
                    // A remote default changed.
                    let key = source.keys.randomElement(using: &random)!
                    source.change(key) { $0.defaultValue.toggle() }
                    _ = state.registryChanged(keys: [key])
                case 5:
                    // A flag registered at runtime, reported with the next change.
                    added += 1
                    source.add(FakeFlagSource.Flag(key: "late\(added)", group: "late", defaultValue: added % 2 == 0))
                    _ = state.registryChanged(keys: [source.keys.randomElement(using: &random)!])
                case 6:
                    _ = state.update(.key(Bool.random(using: &random) ? .tab : .backTab))
                case 7:
                    let query = ["", "1", "flag1", "late", "3"].randomElement(using: &random)!
                    _ = state.update(.key(.character("/")))
                    _ = state.update(.key(.control("u")))
                    for character in query { _ = state.update(.key(.character(character))) }
                    _ = state.update(.key(.enter))
                case 8:
                    for _ in 0..<Int.random(in: 1...6, using: &random) { _ = state.update(.key(.down)) }
                case 9:
                    // A bulk change (above the threshold: counted by one pass, and every change after it too).
                    let keys = Set(source.keys.shuffled(using: &random).prefix(Int.random(in: 5...12, using: &random)))
                    let override = [OverrideState.enabled, .disabled, .featureDefault].randomElement(using: &random)!
                    for key in keys { source.change(key) { $0.override = override } }
                    _ = state.registryChanged(keys: keys)
                case 10:
                    // A bulk change reported by its size only (the runner's event for a change of many keys).
                    let keys = source.keys.shuffled(using: &random).prefix(Int.random(in: 1...15, using: &random))
                    let override = [OverrideState.enabled, .disabled, .featureDefault].randomElement(using: &random)!
                    for key in keys { source.change(key) { $0.override = override } }
                    _ = state.registryChangedInBulk()
                default:
                    _ = state.update(
                        .key([.left, .right, .character("G"), .character("g")].randomElement(using: &random)!))
                }
                var rebuilt = state.withFreshFeed()
                rebuilt.refreshAll()
                let context = "round \(round), step \(step)"
                #expect(state.counts == rebuilt.counts, "\(context)")
                #expect(state.rows.map(\.id) == rebuilt.rows.map(\.id), "\(context)")
                #expect(state.selectedRow?.id == rebuilt.selectedRow?.id, "\(context)")
                if state.counts != rebuilt.counts || state.rows.map(\.id) != rebuilt.rows.map(\.id) { return }
            }
        }
    }

    @Test func aBulkChangeIsCountedInOnePassAndLaterChangesStayRight() {
        let source = makeSource()
        var state = ConsoleHarness(source: source)
        state.feed.recountAbove = 4
        let fullReads = source.fullReads
        let statusReads = source.statusReads
        let keys = Set((0..<10).map { "flag\($0)" })
        for key in keys { source.change(key) { $0.override = .disabled } }
        _ = state.registryChanged(keys: keys)
        #expect(source.fullReads == fullReads + 1, "one pass over every flag")
        #expect(source.statusReads == statusReads, "no flag counted one by one")
        // flag0 and flag5 require a restart and launched with a different value (on, off: 0 on, 5 off).
        #expect(state.counts == ConsoleState.Counts(flags: 20, overridden: 10, pendingRestart: 1))
        source.change("flag3") { $0.override = .featureDefault }
        _ = state.registryChanged(keys: ["flag3"])
        #expect(state.counts == ConsoleState.Counts(flags: 20, overridden: 9, pendingRestart: 1))
        source.change("flag0") { $0.override = .featureDefault }
        _ = state.registryChanged(keys: ["flag0"])
        #expect(state.counts == ConsoleState.Counts(flags: 20, overridden: 8, pendingRestart: 0))
    }

    @Test func aChangeReportedInBulkIsCountedInOnePassAndRelistsAScope() {
        let source = makeSource()
        var state = ConsoleHarness(source: source)
        press(.tab, .tab, .tab, into: &state)  // Overridden
        let statusReads = source.statusReads
        for index in 0..<12 { source.change("flag\(index)") { $0.override = .enabled } }
        #expect(state.registryChangedInBulk() == [.repaint])
        #expect(source.statusReads == statusReads, "no flag counted one by one")
        #expect(state.counts.overridden == 12)
        #expect(state.rows.count == 12)
    }

    @Test func theInboxFoldsChangesIntoOneBulkChangeOnceAnyIsBulk() {
        let inbox = ConsoleInbox()
        inbox.post(FeatureChange(keys: ["a", "b"], origin: .local))
        inbox.post(.statusChanged(ConsoleStatus()))
        inbox.post(FeatureChange(keys: ["b", "c"], origin: .external))
        let first = inbox.drain()
        #expect(first.changes == .keys(["a", "b", "c"]))
        #expect(first.events.count == 1)
        if case .statusChanged? = first.events.first {
        } else {
            Issue.record("expected the status, got \(first.events)")
        }
        inbox.post(FeatureChange(keys: ["a", "b"], origin: .local))
        inbox.post(FeatureChange(distinctKeys: (0..<300).map { "k\($0)" }, origin: .local))
        inbox.post(FeatureChange(keys: ["c"], origin: .local))
        #expect(inbox.drain().changes == .many)
        let empty = inbox.drain()
        #expect(empty.changes == nil && empty.events.isEmpty)
        // Small changes that add up to more than the limit are not listed either.
        for index in 0...ConsoleFeed.listedChangeLimit {
            inbox.post(FeatureChange(keys: ["k\(index)"], origin: .local))
        }
        #expect(inbox.drain().changes == .many)
    }

    @Test func scopedListsDropAndGainTheChangedFlag() {
        let source = makeSource()
        var state = ConsoleHarness(source: source)
        press(.tab, .tab, .tab, into: &state)  // Overridden
        #expect(state.rows.isEmpty)
        source.change("flag7") { $0.override = .disabled }
        _ = state.registryChanged(keys: ["flag7"])
        #expect(state.rows.map(\.id) == ["flag:flag7"])
        source.change("flag7") { $0.override = .featureDefault }
        _ = state.registryChanged(keys: ["flag7"])
        #expect(state.rows.isEmpty)
    }

    @Test func signalsEndTheSessionOrGoThroughThePrompt() {
        let source = makeSource()
        var state = ConsoleHarness(source: source)
        #expect(state.update(.signal(.terminate)) == [.quit(.notNeeded, signal: .terminate)])
        #expect(state.update(.signal(.interrupt)) == [.quit(.notNeeded, signal: .interrupt)])
        #expect(state.update(.signal(.suspend)) == [.suspend])
        // A pending restart: SIGHUP quits "later"; SIGINT opens the prompt, a second SIGINT quits "later".
        source.change("flag5") { $0.override = .enabled }
        _ = state.registryChanged(keys: ["flag5"])
        #expect(state.update(.signal(.hangUp)) == [.quit(.later, signal: .hangUp)])
        #expect(state.update(.signal(.interrupt)) == [.repaint])
        #expect(state.mode.kind == .restartPrompt)
        #expect(state.update(.signal(.interrupt)) == [.quit(.later, signal: .interrupt)])
    }

    @Test func restartNowCarriesTheFlagsTheRestartHandlerIsGiven() {
        let source = makeSource()
        var state = ConsoleHarness(source: source)
        source.change("flag5") { $0.override = .enabled }  // launched OFF: pending
        _ = state.registryChanged(keys: ["flag5"])
        #expect(press(.character("q"), into: &state).isEmpty)
        #expect(state.pendingRestarts.map(\.key) == ["flag5"])
        // The quit effect names the prompt's flags: the shell reads nothing of the state to run the handler.
        let effects = press(.character("r"), into: &state)
        guard case .quit(.restartNow, nil, let carried)? = effects.last else {
            Issue.record("no quit: \(effects)")
            return
        }
        #expect(carried.map(\.key) == ["flag5"])
        #expect(carried.map(\.currentValue) == [true])
    }

    @Test func undoPutsBackTheOpeningOverrideOrForcesTheLaunchValue() {
        let source = makeSource()
        // flag0 (restart, launched ON) was overridden OFF before the console opened, flag10 (restart,
        // launched ON) had no override.
        source.change("flag0") { $0.override = .disabled }
        var state = ConsoleHarness(source: source)
        source.change("flag0") { $0.override = .enabled }  // back to its launch value: not pending
        source.change("flag10") { $0.override = .disabled }  // pending
        source.change("flag15") { $0.defaultValue = true }  // a remote change made the default differ from launch
        _ = state.registryChanged(keys: ["flag0", "flag10", "flag15"])
        #expect(press(.character("q"), into: &state).isEmpty)
        #expect(state.pendingRestarts.map(\.key) == ["flag10", "flag15"])
        // flag10: its opening override (none) gives the launch value; flag15: it does not, so force OFF.
        #expect(
            press(.character("u"), into: &state) == [
                .write(.values(["flag10": .remove, "flag15": .set(.off)]))
            ])
        // The session ends once the undo is saved.
        #expect(state.mode.kind == .quitWhenSaved)
        #expect(state.update(.storeWriteSaved) == [.quit(.undo, signal: nil)])
    }

    @Test func undoRemovesAnOverrideFromAnEarlierSessionWhenNoOverrideGivesTheLaunchValue() {
        let source = makeSource()
        // flag10 (restart, launched ON, default ON) was forced OFF by an earlier session: pending on opening.
        source.change("flag10") { $0.override = .disabled }
        var state = ConsoleHarness(source: source)
        #expect(press(.character("q"), into: &state).isEmpty)
        #expect(state.pendingRestarts.map(\.key) == ["flag10"])
        #expect(press(.character("u"), into: &state) == [.write(.values(["flag10": .remove]))])
    }

    @Test func aFailedWriteIsReported() {
        var state = ConsoleHarness(source: makeSource())
        #expect(state.update(.storeWriteFailed("disk full")) == [.repaint])
        #expect(state.statusMessage == "Could not save the change: disk full")
        _ = state.update(.key(.down))
        #expect(state.statusMessage == nil, "a message lasts until the next key")
    }

    @Test func ticksRepaintOnlyForRemoteStatusOrNewFlags() {
        let source = makeSource()
        var state = ConsoleHarness(source: source)
        #expect(state.tick(sinceLastFrame: .seconds(5)).isEmpty, "no remote source: nothing to repaint")
        source.add(FakeFlagSource.Flag(key: "late", group: "late"))
        // Flags registered since the last look reach the state as a change.
        #expect(state.tick(sinceLastFrame: .milliseconds(100)) == [.repaint])
        #expect(state.counts.flags == 21)
        #expect(state.rows.contains { $0.id == "flag:late" })
    }
}
