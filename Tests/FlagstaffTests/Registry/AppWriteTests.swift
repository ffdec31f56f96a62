import FlagstaffTestSupport
import Foundation
import Observation
import Synchronization
import Testing

@testable import Flagstaff

/// The app's setters (`override =`, `overriddenValue =`) put the value in force at once and write the store off the
/// calling thread, in order, a burst in one write; `flush()` waits for the store (issue 35, item 4).
@Suite(.serialized) struct AppWriteTests {
    struct AppFeatures: FeatureGroup {
        let darkMode = Feature()
        let maxItems = Setting(default: 20, range: 1...100)
    }

    /// A registry of ``AppFeatures`` on a file store in a new directory (no watcher: the tests drive every reload).
    static func makeRegistry(lockWait: FileOverrideStore.LockWait = .init()) throws -> (
        FeatureRegistry<AppFeatures>, FileOverrideStore
    ) {
        let store = try FileOverrideStore(
            url: temporaryDirectory().appendingPathComponent("overrides.json"), lockWait: lockWait)
        return (FeatureRegistry(AppFeatures(), store: store, options: RegistryOptions(storeWatchInterval: nil)), store)
    }

    @Test func theSetterReturnsWhileTheStoresLockIsHeldAndFlushWaitsForTheWrite() async throws {
        // The write waits for the lock longer than the default 10 s: under the thread sanitizer, beside the other
        // suites, the checks before the lock is released took longer than that.
        let (features, store) = try Self.makeRegistry(lockWait: .init(timeout: .seconds(120)))
        let lock = try await StoreLockHolder.onThread(path: store.url.path)
        let told = Signal()
        withObservationTracking {
            _ = features.darkMode.enabled
        } onChange: {
            told.raise()
        }
        let changes = AnnotatedMutex<[FeatureChange]>([])
        let subscription = features.onChange { change in changes.withLock { $0.append(change) } }
        defer { subscription.cancel() }

        features.darkMode.override = .enabled  // with the lock held: before this change, this waited for it
        features.maxItems.overriddenValue = 50

        #expect(features.darkMode.enabled && features.darkMode.override == .enabled)
        #expect(features.maxItems.value == 50)
        #expect(told.isRaised, "Observation is told before the setter returns")
        #expect(changes.withLock { $0.map(\.keys) } == [["darkMode"], ["maxItems"]])
        #expect(features.storedOverrides == ["darkMode": .on, "maxItems": try OverrideValue(json: "50")])
        #expect(try store.load().isEmpty, "nothing is written while another holds the lock")

        let flushed = Signal()
        let flush = Task {
            try await features.flush()
            flushed.raise()
        }
        try await Task.sleep(for: .milliseconds(200))  // proving that flush() does not return while the lock is held
        #expect(!flushed.isRaised)
        lock.release()
        try await flush.value
        #expect(try store.load() == ["darkMode": .on, "maxItems": try OverrideValue(json: "50")])
        #expect(features.storeError == nil)
        #expect(changes.withLock { $0.count } == 2, "the write itself changes no member: no second notice")
    }

    @Test func tenThousandTogglesThenFlushLeaveTheLastValueInTheFileAndEveryChangeInTheJournal() async throws {
        let (features, store) = try Self.makeRegistry()
        let count = 10_000
        for index in 0..<count {
            features.darkMode.override = index.isMultiple(of: 2) ? .enabled : .disabled
            #expect(features.darkMode.enabled == index.isMultiple(of: 2))
        }
        try await features.flush()
        #expect(try store.load() == ["darkMode": .off])
        let journal = try #require(try store.journal()).read()
        #expect(journal.problems.isEmpty)
        let entries = journal.entries.filter { $0.key == "darkMode" }
        #expect(entries.count == count)
        #expect(journal.changes.count == count, "each toggle is a change of its own (one undo step)")
        #expect(entries.first?.old == nil && entries.first?.new == .on)
        for (index, entry) in entries.enumerated() {
            #expect(entry.new == (index.isMultiple(of: 2) ? .on : .off))
            if index > 0 { #expect(entry.old == entries[index - 1].new) }
        }
        #expect(zip(entries, entries.dropFirst()).allSatisfy { $0.time <= $1.time })
        #expect(entries.last?.new == .off)
    }

    @Test func aFailedWriteIsInStoreErrorObservedAndTheMemberGoesBackToTheStoresValue() async throws {
        let (features, store) = try Self.makeRegistry(lockWait: .init(timeout: .milliseconds(100)))
        let lock = try await StoreLockHolder.onThread(path: store.url.path)
        defer { lock.release() }
        let told = Signal()
        withObservationTracking {
            _ = features.storeError
        } onChange: {
            told.raise()
        }

        features.darkMode.override = .enabled
        #expect(features.darkMode.enabled)
        let error = await #expect(throws: OverrideStoreError.self) { try await features.flush() }
        #expect(error?.holder?.pid == getpid(), "the lock's timeout names its holder")
        #expect(told.isRaised, "the Observation framework is told of the error")
        #expect(features.storeError is OverrideStoreError)
        #expect(!features.darkMode.enabled && features.darkMode.override == .featureDefault)
        #expect(features.lastRefusedChange?.key == "darkMode")
        #expect(features.storedOverrides.isEmpty)

        lock.release()
        told.lower()
        withObservationTracking {
            _ = features.storeError
        } onChange: {
            told.raise()
        }
        features.darkMode.override = .enabled
        try await features.flush()
        #expect(features.storeError == nil && told.isRaised, "a write that succeeds clears it")
        #expect(try store.load() == ["darkMode": .on])
    }

    @Test func aThrowingWriteAfterTheSettersKeepsTheOrderTheChangesWereMadeIn() async throws {
        let (features, store) = try Self.makeRegistry()
        features.darkMode.override = .enabled
        features.maxItems.overriddenValue = 30
        try features.setOverride(.disabled, for: features.darkMode)  // the console's and the CLI's route: at once
        #expect(try store.load() == ["darkMode": .off, "maxItems": try OverrideValue(json: "30")])
        features.maxItems.overriddenValue = nil
        try await features.flush()
        #expect(try store.load() == ["darkMode": .off])
        let entries = try #require(try store.journal()).read().entries
        #expect(
            entries.map { "\($0.key)=\($0.new?.json ?? "-")" } == [
                "darkMode=\"on\"", "maxItems=30", "darkMode=\"off\"", "maxItems=-",
            ])
    }

    @Test func theAppsWritesDrainedByAnAnnotatedWriteAreJournaledAsTheApps() async throws {
        let (features, store) = try Self.makeRegistry()
        features.maxItems.overriddenValue = 30  // pending: written by the profile's write, first
        let parameters = WriteParameters(note: ChangeAnnotation(origin: .profile, profile: "qa"))
        try features.writeOverrideValues(
            [features.darkMode.key: .set(.off)], policy: .writeEveryValue, parameters: parameters)
        try await features.flush()
        let entries = try #require(try store.journal()).read().entries
        #expect(entries.map(\.key) == ["maxItems", "darkMode"])
        #expect(entries.first?.profile == nil && entries.first?.origin != .profile, "the app's write: \(entries)")
        #expect(entries.last?.profile == "qa" && entries.last?.origin == .profile)
    }

    @Test func theThrowingAPIStillWritesAtOnceAndThrowsTheStoresError() async throws {
        let (features, store) = try Self.makeRegistry(lockWait: .init(timeout: .milliseconds(100)))
        let lock = try await StoreLockHolder.onThread(path: store.url.path)
        defer { lock.release() }
        #expect(throws: OverrideStoreError.self) { try features.setOverride(.enabled, for: features.darkMode) }
        #expect(!features.darkMode.enabled)
        #expect(features.storeError != nil)
    }

    @Test func flushWithNothingPendingReturnsAtOnce() async throws {
        let (features, _) = try Self.makeRegistry()
        try await features.flush()
        features.darkMode.override = .enabled
        try await features.flush()
        try await features.flush()
        #expect(features.darkMode.enabled)
    }

    @Test func anotherRegistryOnTheStoreSeesTheAppsWriteOnceFlushed() async throws {
        let (features, store) = try Self.makeRegistry()
        features.maxItems.overriddenValue = 70
        try await features.flush()
        let other = FeatureRegistry(AppFeatures(), store: store, options: RegistryOptions(storeWatchInterval: nil))
        #expect(other.maxItems.value == 70)
        // A reload while a write is pending keeps the app's value on top of what the store says.
        features.maxItems.overriddenValue = 80
        try other.setOverride(.enabled, for: other.darkMode)
        features.refreshFromStore()
        #expect(features.maxItems.value == 80 && features.darkMode.enabled)
        try await features.flush()
        #expect(try store.load() == ["darkMode": .on, "maxItems": try OverrideValue(json: "80")])
    }

    static var tool: URL? { MultiProcessStoreTests.tool }

    @Test(.enabled(if: tool != nil, "the StoreStressTool binary is built next to the test bundle by `swift test`"))
    func anAppKilledDuringABurstOfTogglesNeverLeavesACorruptStore() async throws {
        let directory = temporaryDirectory()
        let file = directory.appendingPathComponent("overrides.json")
        for round in 0..<8 {
            let done = try await MultiProcessStoreTests.killWriter(
                ["toggle", file.path], after: 99 + 100 * (round % 3), pause: .microseconds(900 * (round % 4)))
            #expect(!done.isEmpty, "round \(round): the app toggled")
            let store = try FileOverrideStore(url: file)
            let overrides = try store.load()  // must parse every time
            #expect(overrides.keys.allSatisfy { $0 == "toggled" }, "round \(round): \(overrides)")
            let journal = try #require(try store.journal()).read()
            #expect(journal.problems.isEmpty, "round \(round): \(journal.problems)")
            let entries = journal.entries
            // Each app's changes follow each other (a killed app's last write may be in the file and not yet
            // journaled: the next app's first change starts from the file).
            for (previous, entry) in zip(entries, entries.dropFirst()) where previous.pid == entry.pid {
                #expect(entry.old == previous.new, "round \(round): the journal's changes follow each other")
            }
            let registry = FeatureRegistry(
                StoreStressToolFeatures(), store: store, options: RegistryOptions(storeWatchInterval: nil))
            #expect(registry.storeError == nil)
            // This registry announces its manifest beside the store in the background (atomically, through a
            // temporary file of its own): done before the folder is listed.
            registry.waitForAnnouncement()
        }
        // A killed writer's temporary file is removed by the next writer of the same file: only the last round's can
        // remain, one for the store and one for the manifest the app announces beside it.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
            $0.hasSuffix(".tmp")
        }
        let byFile = Dictionary(grouping: leftovers) {
            $0.hasPrefix(".overrides.json.manifest.json.") ? "manifest" : "store"
        }
        #expect(byFile.values.allSatisfy { $0.count <= 1 }, "\(leftovers)")
    }

    /// The tool's one flag (`StoreStressTool toggle`).
    struct StoreStressToolFeatures: FeatureGroup {
        let toggled = Feature()
    }
}

/// A flag raised from any thread (an Observation tracker's `onChange`, a task).
private final class Signal: Sendable {
    private let raised = Atomic<Bool>(false)

    var isRaised: Bool { raised.load(ordering: .acquiring) }
    func raise() { raised.store(true, ordering: .releasing) }
    func lower() { raised.store(false, ordering: .releasing) }
}
