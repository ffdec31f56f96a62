import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffConsole

/// The effect runner's store writes against a real file store whose lock another holder keeps: the loop is
/// never blocked, the holder is named, and the write lands once the lock is released (or is reported unsaved).
@Suite struct ConsoleStoreWriterTests {
    /// A file store in a fresh directory, a registry on it, and a way to hold its lock from another thread
    /// (an `flock` on a descriptor of its own conflicts like another process's).
    final class Fixture: Sendable {
        let directory: URL
        let url: URL
        let registry: AnyFeatureRegistry
        private let lock = AnnotatedMutex<StoreLockHolder?>(nil)

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("console-lock-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            url = directory.appendingPathComponent("overrides.json")
            registry = try makeRegistry(store: FileOverrideStore(url: url))
        }

        deinit { try? FileManager.default.removeItem(at: directory) }

        /// Takes the store's lock on another thread and returns once it is held.
        func holdLock() async throws {
            let holder = try await StoreLockHolder.onThread(path: url.path)
            lock.withLock { $0 = holder }
        }

        func releaseLock() { lock.withLock { $0?.release() } }

        /// The overrides in the file.
        func stored() throws -> [String: OverrideValue] { try FileOverrideStore(url: url).load() }
    }

    @Test func aHeldLockNeitherBlocksTheLoopNorLosesTheWrite() async throws {
        let fixture = try Fixture()
        try await fixture.holdLock()
        var state = ConsoleHarness(registry: fixture.registry, width: 100, height: 30)
        let runner = ConsoleEffectRunner(registry: fixture.registry, terminal: ScriptedTerminal(events: []))
        defer { runner.stop() }

        let clock = ContinuousClock()
        let start = clock.now
        try runner.send(.key(.character("o")), to: &state)
        // The store would wait up to 10 s for the lock; the console's loop gets control back at once.
        #expect(start.duration(to: clock.now) < .seconds(5), "the loop waited for the lock (up to 10 s)")
        #expect(state.pendingWrites == [.values(["blueText": .set(.on)])])
        #expect(
            state.storeLockWait?.holder.hasPrefix("pid \(getpid()) (") == true,
            "\(String(describing: state.storeLockWait))")
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .featureDefault)
        // Keys keep acting, and a second write queues behind the first.
        try runner.send(.key(.character("j")), to: &state)
        try runner.send(.key(.character("o")), to: &state)
        #expect(state.cursor == 1)
        #expect(state.pendingWrites.count == 2)
        #expect(ConsoleLayout.render(state).find("saving ON") != nil)

        fixture.releaseLock()
        let landed = try await poll(timeout: .seconds(90)) { () throws -> Bool? in
            try runner.sendQueuedEvents(to: &state)
            return state.pendingWrites.isEmpty ? true : nil
        }
        #expect(landed == true)
        #expect(state.storeLockWait == nil)
        #expect(try fixture.stored() == ["blueText": .on, "useTabBarNav": .on])
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .enabled)
        #expect(ConsoleLayout.render(state).find("saving") == nil)
    }

    @Test func quittingWithoutSavingReportsTheUnsavedKeys() async throws {
        let fixture = try Fixture()
        try await fixture.holdLock()
        defer { fixture.releaseLock() }
        var state = ConsoleHarness(registry: fixture.registry, width: 100, height: 30)
        let runner = ConsoleEffectRunner(registry: fixture.registry, terminal: ScriptedTerminal(events: []))
        try runner.send(.key(.character("o")), to: &state)
        try runner.send(.key(.character("q")), to: &state)
        #expect(state.mode.kind == .quitWhenSaved)
        #expect(runner.outcome == nil)
        try runner.send(.key(.character("y")), to: &state)
        let outcome = try #require(runner.outcome)
        #expect(outcome.unsavedKeys == ["blueText"])
        #expect(outcome.changedKeys.isEmpty)
        #expect(!runner.writer.hasQueuedWrites)
        #expect(try fixture.stored().isEmpty)
    }

    @Test func aFreeLockWritesAtOnceOnTheLoop() throws {
        let fixture = try Fixture()
        var state = ConsoleHarness(registry: fixture.registry, width: 100, height: 30)
        let runner = ConsoleEffectRunner(registry: fixture.registry, terminal: ScriptedTerminal(events: []))
        defer { runner.stop() }
        try runner.send(.key(.character("o")), to: &state)
        // Saved before `send` returns: the next frame shows the new value, as before.
        #expect(state.pendingWrites.isEmpty)
        #expect(try fixture.stored() == ["blueText": .on])
        #expect(ConsoleLayout.render(state).text(row: 3).contains("ON   override"))
    }

    @Test func aSavedWriteForcesEveryMarkedMemberAndPostsTheKeysItWrote() throws {
        let fixture = try Fixture()
        let inbox = ConsoleInbox()
        let writer = ConsoleStoreWriter(registry: fixture.registry, clock: ContinuousClock(), inbox: inbox)
        defer { writer.stop() }
        var marked = MemberSet()
        for key in ["blueText", "list.infiniteScroll"] {
            marked.insert(try #require(fixture.registry.feature(forKey: key)?.registryOrdinal))
        }
        // Blue Text is off by its default: forced all the same, as `x` on it alone forces it.
        let events = writer.submit(.members(marked, edit: .set(.off)))
        guard case .storeWriteSaved? = events.first else {
            Issue.record("expected the write saved, got \(events)")
            return
        }
        #expect(try fixture.stored() == ["blueText": .off, "list.infiniteScroll": .off])
        #expect(inbox.drain().changes == .keys(["blueText", "list.infiniteScroll"]))

        // An expiry alone changes no value, so the registry reports nothing: the writer's keys bring it.
        let reported = AnnotatedMutex<Set<String>>([])
        let subscription = fixture.registry.onChange { change in reported.withLock { $0.formUnion(change.keys) } }
        defer { subscription.cancel() }
        _ = writer.submit(.values(["list.infiniteScroll": .set(.off)], expiresIn: 3600))
        #expect(reported.withLock { $0.isEmpty }, "the registry reported no change")
        #expect(inbox.drain().changes == .keys(["list.infiniteScroll"]))
    }

    @Test func aWriteWithTheCallersWaitTakesTheLockOnceAndGivesUpAtOnce() async throws {
        let fixture = try Fixture()
        try await fixture.holdLock()
        defer { fixture.releaseLock() }
        // The store's own wait is 10 s; the caller's (the console's writer) is zero: one try, then the holder.
        let clock = ContinuousClock()
        let start = clock.now
        let noWait = WriteParameters(lockWait: FileOverrideStore.LockWait(timeout: .zero, noticeAfter: .seconds(3600)))
        #expect {
            try fixture.registry.writeOverrideValues(
                ["blueText": .set(.on)], policy: .writeEveryValue, parameters: noWait)
        } throws: { error in
            guard let error = error as? OverrideStoreError, error.isLockTimeout else { return false }
            return error.holder?.pid == getpid()
        }
        #expect(start.duration(to: clock.now) < .seconds(5), "the loop waited for the lock (up to 10 s)")
        #expect(fixture.registry.flag(forKey: "blueText")?.override == .featureDefault)
    }
}
