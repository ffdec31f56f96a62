import Flagstaff
import FlagstaffTesting
import Testing

@testable import FlagstaffConsole

#if canImport(Glibc)
import Glibc
#endif

/// The run loop against a scripted terminal: effects reach the registry, the outcome is right.
@Suite struct FeatureConsoleTests {
    /// Keys that select Use Tab Bar Nav (requires restart), force it ON and quit.
    let changeRestartFlagAndQuit: [ConsoleEvent?] = [.key(.down), .key(.character("o")), .key(.character("q"))]

    final class Recorder: Sendable {
        let calls = AnnotatedMutex<[[PendingRestart]]>([])
    }

    @Test func restartNowRunsTheHandlerAfterTheTerminalIsRestored() throws {
        let registry = try makeRegistry()
        let recorder = Recorder()
        let terminal = ScriptedTerminal(events: changeRestartFlagAndQuit + [.key(.character("r"))])
        var promptFrame: ScreenBuffer?
        terminal.beforeEvent = { index in if index == 3 { promptFrame = terminal.lastFrame } }
        let options = ConsoleOptions(restartHandler: { pending in
            recorder.calls.withLock { $0.append(pending) }
        })
        let outcome = try FeatureConsole(registry: registry, options: options).run(on: terminal)
        #expect(promptFrame?.find("⟳ Use Tab Bar Nav  OFF → ON") != nil)
        #expect(outcome.restartChoice == .restartNow)
        #expect(outcome.changedKeys == ["useTabBarNav"])
        #expect(outcome.restartRequiredKeys == ["useTabBarNav"])
        #expect(!outcome.needsRestart)
        #expect(terminal.ended)
        let calls = recorder.calls.withLock { $0 }
        #expect(
            calls == [
                [PendingRestart(key: "useTabBarNav", label: "Use Tab Bar Nav", launchValue: false, currentValue: true)]
            ])
    }

    final class Durations: Sendable {
        let values = AnnotatedMutex<[Duration]>([])
    }

    @Test func theFrameObserverTimesEachFrameDrawnForKeysOnTheInjectedClock() throws {
        let registry = try makeRegistry()
        let times = Durations()
        let clock = ManualClock()
        var options = ConsoleOptions()
        options.clock = clock
        options.frameObserver = { duration in times.values.withLock { $0.append(duration) } }
        // Two moves, then a search typed ahead (one frame for the run of query keys), then quit.
        let terminal = ScriptedTerminal(events: [
            .key(.down), .key(.down), .key(.character("/")), .key(.character("a")),
            .key(.character("v")), .key(.escape), .key(.escape), .key(.character("q")),
        ])
        terminal.deliversTypeahead = true
        terminal.afterDraw = { clock.advance(by: .milliseconds(3)) }  // each frame "costs" 3 ms
        _ = try FeatureConsole(registry: registry, options: options).run(on: terminal)
        let recorded = times.values.withLock { $0 }
        // The first frame (before any key) is not a key's frame; the quit key draws none.
        #expect(recorded.count == terminal.frameCount - 1)
        #expect(recorded.count == 6)
        #expect(recorded.allSatisfy { $0 == .milliseconds(3) }, "\(recorded)")
    }

    @Test func ticksRepaintOnceASecondOnlyWhileRemoteSourcesAreAttached() throws {
        let clock = ManualClock()
        var options = ConsoleOptions()
        options.clock = clock
        for attached in [false, true] {
            let registry = try makeRegistry()
            if attached {
                registry.attach(
                    FakeRemoteSource(name: "Unleash", status: RemoteSourceStatus(lastFetch: nil, state: .neverFetched)))
            }
            // Three reads without input: 0.4 s, 0.8 s and 1.2 s after the first frame.
            let terminal = ScriptedTerminal(events: [nil, nil, nil])
            var framesBefore: [Int] = []
            terminal.beforeEvent = { index in
                framesBefore.append(terminal.frameCount)
                if index < 3 { clock.advance(by: .milliseconds(400)) }
            }
            _ = try FeatureConsole(registry: registry, options: options).run(on: terminal)
            // framesBefore[i]: frames drawn before the i-th read; [3] is after the third tick.
            #expect(framesBefore == (attached ? [1, 1, 1, 2] : [1, 1, 1, 1]), "attached: \(attached)")
        }
    }

    @Test func flagsRegisteredAtRuntimeAppearOnTheNextTick() throws {
        let registry = try makeRegistry()
        let terminal = ScriptedTerminal(events: [nil])
        terminal.beforeEvent = { index in
            if index == 0 { try? registry.register(Feature(key: "late.flag", label: "Late Flag"), in: "late") }
        }
        _ = try FeatureConsole(registry: registry).run(on: terminal)
        let frame = try #require(terminal.lastFrame)
        #expect(frame.find("8 flags") != nil, "\(frame.text)")
        #expect(frame.find("▾ Late") != nil)
    }

    @Test func laterKeepsTheChange() throws {
        let registry = try makeRegistry()
        let terminal = ScriptedTerminal(events: changeRestartFlagAndQuit + [.key(.character("l"))])
        let outcome = try FeatureConsole(registry: registry).run(on: terminal)
        #expect(outcome.restartChoice == .later)
        #expect(outcome.needsRestart)
        #expect(registry.flag(forKey: "useTabBarNav")?.override == .enabled)
    }

    @Test func undoRestoresTheLaunchValues() throws {
        let registry = try makeRegistry()
        // Also change a flag that needs no restart: undo leaves it alone.
        let events: [ConsoleEvent?] = [.key(.character("o"))] + changeRestartFlagAndQuit + [.key(.character("u"))]
        let outcome = try FeatureConsole(registry: registry).run(on: ScriptedTerminal(events: events))
        #expect(outcome.restartChoice == .undo)
        #expect(outcome.restartRequiredKeys.isEmpty)
        #expect(!outcome.needsRestart)
        #expect(outcome.changedKeys == ["blueText"])
        #expect(registry.flag(forKey: "useTabBarNav")?.override == .featureDefault)
        #expect(registry.flag(forKey: "blueText")?.override == .enabled)
    }

    @Test func undoRestoresAValueThatWasOverriddenBeforeTheConsoleOpened() throws {
        let registry = try makeRegistry()
        // The app launched with the flag OFF, then something forced it ON before the console opened.
        try registry.setOverride(.enabled, for: try #require(registry.flag(forKey: "useTabBarNav")))
        let events: [ConsoleEvent?] = [.key(.character("q")), .key(.character("u"))]
        let outcome = try FeatureConsole(registry: registry).run(on: ScriptedTerminal(events: events))
        #expect(outcome.restartChoice == .undo)
        #expect(registry.flag(forKey: "useTabBarNav")?.enabled == false)
    }

    @Test func escapeCancelsThePromptAndStays() throws {
        let registry = try makeRegistry()
        let terminal = ScriptedTerminal(events: changeRestartFlagAndQuit + [.key(.escape), .key(.character("x"))])
        let outcome = try FeatureConsole(registry: registry).run(on: terminal)
        // The script ran out (SIGHUP) after Esc and x: the console was still running.
        #expect(outcome.signal == SIGHUP)
        #expect(terminal.lastFrame?.find("Restart needed") == nil)
        #expect(registry.flag(forKey: "useTabBarNav")?.override == .disabled)
        #expect(outcome.restartChoice == .notNeeded, "forced OFF again: nothing differs from launch")
    }

    @Test func noPromptWhenOnlyOrdinaryFlagsChanged() throws {
        let registry = try makeRegistry()
        let events: [ConsoleEvent?] = [.key(.character("o")), .key(.character("q"))]
        let outcome = try FeatureConsole(registry: registry).run(on: ScriptedTerminal(events: events))
        #expect(
            outcome == ConsoleOutcome(changedKeys: ["blueText"], restartRequiredKeys: [], restartChoice: .notNeeded))
    }

    @Test func signalsEndTheSessionWithTheirNumber() throws {
        let registry = try makeRegistry()
        var outcome = try FeatureConsole(registry: registry).run(on: ScriptedTerminal(events: [.signal(.interrupt)]))
        #expect(outcome.signal == SIGINT && outcome.restartChoice == .notNeeded)
        outcome = try FeatureConsole(registry: registry).run(on: ScriptedTerminal(events: [.signal(.terminate)]))
        #expect(outcome.signal == SIGTERM)
        // Ctrl-C with a pending restart shows the prompt; a second Ctrl-C quits keeping the change.
        let terminal = ScriptedTerminal(events: [
            .key(.down), .key(.character("o")), .signal(.interrupt), .signal(.interrupt),
        ])
        var promptShown = false
        terminal.beforeEvent = { index in
            if index == 3 { promptShown = terminal.lastFrame?.find("Restart needed") != nil }
        }
        outcome = try FeatureConsole(registry: registry).run(on: terminal)
        #expect(promptShown)
        #expect(outcome.signal == SIGINT && outcome.restartChoice == .later && outcome.needsRestart)
    }

    @Test func ctrlZSuspendsAndRedraws() throws {
        let terminal = ScriptedTerminal(events: [.signal(.suspend), .key(.character("q"))])
        _ = try FeatureConsole(registry: try makeRegistry()).run(on: terminal)
        #expect(terminal.suspendCount == 1)
        #expect(terminal.frameCount >= 2)
    }

    @Test func anotherProcessesChangeShowsWithoutLosingCursorOrSearch() throws {
        // Two registries on one store stand for the console and another process.
        let store = InMemoryOverrideStore()
        let registry = try makeRegistry(store: store)
        let other = try makeRegistry(store: store)
        let events: [ConsoleEvent?] =
            [.key(.character("/"))] + "scroll".map { .key(.character($0)) } + [.key(.enter), nil, nil]
        let terminal = ScriptedTerminal(events: events)
        var before: ScreenBuffer?
        terminal.beforeEvent = { index in
            if index == 8 {
                before = terminal.lastFrame
                try? other.setOverride(.disabled, for: other.flag(forKey: "list.infiniteScroll")!)
                registry.refreshFromStore()  // what the store watcher does every 0.5 s
            }
        }
        _ = try FeatureConsole(registry: registry).run(on: terminal)
        let after = try #require(terminal.lastFrame)
        #expect(before?.text(row: 3).contains("ON   default") == true)
        #expect(after.text(row: 3).contains("List → Infinite Scroll"))
        #expect(after.text(row: 3).contains("OFF  override"))
        #expect(after.cell(row: 3, column: 0).reverse, "the cursor stayed on the flag")
        #expect(after.text(row: 1).hasPrefix(" / scroll"), "the search stayed")
        #expect(after.text(row: 0).contains("1 overridden"))
    }

    @Test func aStoreErrorIsShownInTheHeader() throws {
        let registry = try makeRegistry(store: FailingStore())
        let terminal = ScriptedTerminal(events: [.key(.character("o"))])
        _ = try FeatureConsole(registry: registry).run(on: terminal)
        let frame = try #require(terminal.lastFrame)
        #expect(frame.text(row: 29).contains("Could not save the change: disk full"))
        #expect(frame.text(row: 0).contains("store error: disk full"))
        #expect(registry.flag(forKey: "blueText")?.override == .featureDefault)
    }
}

/// A store whose writes fail, to check that errors are shown and nothing changes.
private struct FailingStore: OverrideStore {
    struct Failure: Error, CustomStringConvertible { var description: String { "disk full" } }
    func load() throws -> [String: OverrideValue] { [:] }
    func write(_ change: OverrideChange) throws -> StoreSnapshot { throw Failure() }
}
