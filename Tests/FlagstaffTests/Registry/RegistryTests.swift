import FlagstaffTesting
import Foundation
import Synchronization
import Testing

@testable import Flagstaff

@Suite struct RegistryTests {
    @Test func overridesPersistInTheStoreAndResetRemovesTheKey() async throws {
        let store = InMemoryOverrideStore()
        let features = FeatureRegistry(AppFeatures(), store: store)
        features.list.infiniteScroll.override = .enabled
        features.blueText.override = .disabled
        try await features.flush()
        #expect(store.load() == ["list.infiniteScroll": .enabled, "blueText": .disabled])
        features.blueText.override = .featureDefault
        try await features.flush()
        #expect(store.load() == ["list.infiniteScroll": .enabled])
        #expect(features.overriddenFeatures.map(\.key) == ["list.infiniteScroll"])
    }

    @Test func overridesLoadFromTheStoreAtCreation() {
        let store = InMemoryOverrideStore(["blueText": .enabled, "unknown.flag": .disabled])
        let features = FeatureRegistry(AppFeatures(), store: store)
        #expect(features.blueText.enabled)
        #expect(features.blueText.override == .enabled)
        #expect(features.storedOverrides["unknown.flag"] == .disabled)
    }

    @Test func resetAllKeepsUnknownKeys() throws {
        let store = InMemoryOverrideStore([
            "blueText": .enabled, "list.infiniteScroll": .disabled, "other.app": .enabled,
        ])
        let features = FeatureRegistry(AppFeatures(), store: store)
        try features.resetAllOverrides()
        #expect(store.load() == ["other.app": .enabled])
        #expect(features.overriddenFeatures.isEmpty)
    }

    @Test func restartTracking() {
        let features = FeatureRegistry(AppFeatures())
        #expect(features.featuresRequiringRestart.isEmpty)
        features.useTabBarNav.override = .enabled
        features.blueText.override = .enabled  // does not require restart
        #expect(features.useTabBarNav.isPendingRestart)
        #expect(features.useTabBarNav.launchValue == false)
        #expect(features.featuresRequiringRestart.map(\.key) == ["useTabBarNav"])
        features.useTabBarNav.override = .disabled  // same as launch value: nothing pending
        #expect(features.featuresRequiringRestart.isEmpty)
        features.useTabBarNav.override = .enabled
        features.recordLaunchValues()
        #expect(features.featuresRequiringRestart.isEmpty)
    }

    @Test func restartTrackingUsesTheValueLoadedAtLaunch() {
        let features = FeatureRegistry(AppFeatures(), store: InMemoryOverrideStore(["useTabBarNav": .enabled]))
        #expect(features.useTabBarNav.launchValue)
        features.useTabBarNav.override = .featureDefault
        #expect(features.useTabBarNav.isPendingRestart)
    }

    @Test func runtimeRegistration() throws {
        let features = FeatureRegistry(AppFeatures(), store: InMemoryOverrideStore(["newCheckout": .enabled]))
        let remote = Feature(key: "newCheckout", description: "From the service")
        try features.register(remote, in: "unleash")
        #expect(features.feature(forKey: "newCheckout") === remote)
        #expect(remote.groupPath == ["Unleash"])
        #expect(remote.enabled)  // override loaded from the store
        #expect(features.groups.last?.label == "Unleash")
        #expect(features.allFeatures.last === remote)
        #expect(features.search("checkout").first?.feature === remote)
    }

    @Test func runtimeRegistrationRefusesDuplicatesAndMissingKeys() {
        let features = FeatureRegistry(AppFeatures())
        #expect(throws: RegistryError.self) { try features.register(Feature(key: "blueText")) }
        #expect(throws: RegistryError.self) { try features.register(Feature()) }
        #expect(throws: RegistryError.self) { try features.register(Feature(key: "")) }
        let message = "\(RegistryError.duplicateKey("blueText", existingDeclaration: "AppFeatures.blueText"))"
        #expect(message.contains("blueText") && message.contains("AppFeatures.blueText"))
    }

    @Test func aRefusedBatchRegistersNothing() throws {
        let features = FeatureRegistry(AppFeatures())
        let before = features.allFeatures.count
        let batch = [Feature(key: "batch.first"), Feature(key: "batch.second"), Feature(key: "blueText")]
        #expect(throws: RegistryError.self) { try features.register(batch, in: "batch") }
        #expect(features.allFeatures.count == before)
        #expect(features.feature(forKey: "batch.first") == nil && features.feature(forKey: "batch.second") == nil)
        #expect(features.feature(forKey: "blueText") === features.blueText)
        // The same flags can be registered once the bad one is left out.
        try features.register(Array(batch.prefix(2)), in: "batch")
        #expect(features.feature(forKey: "batch.second") === batch[1])
        let twice = Feature(key: "batch.twice")
        #expect(throws: RegistryError.self) { try features.register([twice, Feature(key: "batch.twice")]) }
        #expect(features.feature(forKey: "batch.twice") == nil)
    }

    @Test func keysWithControlCharactersAreRefusedOthersAccepted() {
        for bad in ["\u{1B}[31mred", "tab\there", "del\u{7F}", "nel\u{85}", "c1\u{9F}", "nul\u{0}"] {
            #expect(AnyFeatureRegistry.keyProblem(bad) != nil, "\(bad.unicodeScalars.map(\.value))")
        }
        for good in ["café", "nbsp\u{A0}x", "tilde~", "emoji🚩", "cjk功能", "a.b-c_d"] {
            #expect(AnyFeatureRegistry.keyProblem(good) == nil, "\(good)")
        }
    }

    @Test func settingAFeatureOfAnotherRegistryThrows() {
        let one = FeatureRegistry(AppFeatures())
        let two = FeatureRegistry(AppFeatures())
        #expect(throws: RegistryError.self) { try one.setOverride(.enabled, for: two.blueText) }
    }

    @Test func changeCallbacksFireOnEveryChange() throws {
        let features = FeatureRegistry(AppFeatures())
        let seen = AnnotatedMutex<[FeatureChange]>([])
        let subscription = features.onChange { change in seen.withLock { $0.append(change) } }
        features.blueText.override = .enabled
        features.blueText.override = .enabled  // no change, no event
        try features.setOverrides(["list.infiniteScroll": .disabled, "debugLogging": .disabled])
        subscription.cancel()
        features.blueText.override = .disabled
        #expect(
            seen.withLock { $0 } == [
                FeatureChange(keys: ["blueText"], origin: .local),
                FeatureChange(keys: ["list.infiniteScroll", "debugLogging"], origin: .local),
            ])
    }

    @Test func changeStreamDeliversChanges() async throws {
        let features = FeatureRegistry(AppFeatures())
        let stream = features.changes
        features.useTabBarNav.override = .enabled
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first == FeatureChange(keys: ["useTabBarNav"], origin: .local))
    }

    @Test func handlerMaySetOverridesWithoutDeadlock() {
        let features = FeatureRegistry(AppFeatures())
        let subscription = features.onChange { change in
            if change.keys.contains("blueText") { features.debugLogging.override = .disabled }
        }
        features.blueText.override = .enabled
        #expect(!features.debugLogging.enabled)
        subscription.cancel()
    }

    @Test func sharedInMemoryStoreChangesAreSeenByTheOtherRegistry() async throws {
        let store = InMemoryOverrideStore()
        let clock = ManualClock()
        let one = FeatureRegistry(AppFeatures(), store: store, options: RegistryOptions(storeWatchInterval: nil))
        let two = FeatureRegistry(
            AppFeatures(), store: store, options: RegistryOptions(storeWatchInterval: .milliseconds(500), clock: clock))
        let stream = two.changes
        one.blueText.override = .enabled
        // The app's setter writes the store a moment later: the watcher must find it written when it looks.
        try await one.flush()
        try await clock.waitForSleepers()  // two's watcher waits for its next check
        clock.advance(by: .milliseconds(500))
        var iterator = stream.makeAsyncIterator()
        let change = await iterator.next()
        #expect(change == FeatureChange(keys: ["blueText"], origin: .external))
        #expect(two.blueText.enabled)
    }

    @Test func remoteSourcesAttachAndNotify() {
        final class FakeSource: RemoteSource {
            let name = "Fake"
            var status: RemoteSourceStatus { RemoteSourceStatus(lastFetch: nil, state: .neverFetched) }
            func refresh() async {}
        }
        let features = FeatureRegistry(AppFeatures())
        let source = FakeSource()
        features.attach(source)
        features.attach(source)
        #expect(features.remoteSources.count == 1)
        let seen = AnnotatedMutex<[FeatureChange]>([])
        let subscription = features.onChange { change in seen.withLock { $0.append(change) } }
        features.notifyRemoteChange(keys: ["blueText"])
        features.notifyRemoteChange(keys: [])
        subscription.cancel()
        #expect(seen.withLock { $0 } == [FeatureChange(keys: ["blueText"], origin: .remote)])
    }
}

@Suite struct FeatureChangeKeyTests {
    @Test func aBulkWriteReportsItsKeysCountedAndAsASetWhenRead() throws {
        let registry = AnyFeatureRegistry(name: "Bulk", store: InMemoryOverrideStore(), options: RegistryOptions())
        try registry.register((0..<500).map { Feature(key: "f\($0)") })
        let seen = AnnotatedMutex<[FeatureChange]>([])
        let subscription = registry.onChange { change in seen.withLock { $0.append(change) } }
        try registry.setOverrideValues(
            Dictionary(uniqueKeysWithValues: (0..<500).map { ("f\($0)", OverrideEdit.set(.on)) }))
        try registry.setOverrideValues(["f1": .set(.off), "f2": .set(.on)])
        subscription.cancel()
        let changes = seen.withLock { $0 }
        #expect(changes.map(\.keyCount) == [500, 1])
        #expect(changes.first?.keys == Set((0..<500).map { "f\($0)" }))
        #expect(changes.last == FeatureChange(keys: ["f1"], origin: .local))
        #expect(changes.last?.hashValue == FeatureChange(keys: ["f1"], origin: .local).hashValue)
        var edited = try #require(changes.last)
        edited.keys.insert("f9")
        #expect(edited.keyCount == 2 && edited.keys == ["f1", "f9"])
    }

    @Test func aWriteLargeEnoughToBeAppliedOnTwoThreadsReachesEveryMember() throws {
        let count = AnyFeatureRegistry.parallelApplyThreshold + 1_001
        let registry = AnyFeatureRegistry(name: "Large", store: InMemoryOverrideStore(), options: RegistryOptions())
        let flags = (0..<count).map { Feature(key: "f\($0)") }
        try registry.register(flags + [Setting(default: 1, key: "number")])
        try registry.setOverrideValues(
            Dictionary(uniqueKeysWithValues: (0..<count).map { ("f\($0)", OverrideEdit.set(.on)) }))
        #expect(flags.allSatisfy { $0.override == .enabled })
        let seen = AnnotatedMutex<[FeatureChange]>([])
        let subscription = registry.onChange { change in seen.withLock { $0.append(change) } }
        // Half of them off, the rest already on (unchanged), and a stored value the setting refuses.
        var changes = Dictionary(
            uniqueKeysWithValues: (0..<count).map { ("f\($0)", OverrideEdit.set($0 % 2 == 0 ? .off : .on)) })
        changes["number"] = .set(.on)
        // Unchecked: the setting's value is refused when applied.
        try registry.write(OverrideChange(changes), policy: .writeEveryValue)
        subscription.cancel()
        #expect(flags.enumerated().allSatisfy { $1.override == ($0 % 2 == 0 ? .disabled : .enabled) })
        #expect(seen.withLock { $0.map(\.keyCount) } == [(count + 1) / 2])
        #expect(registry.storedValueProblems.map(\.key) == ["number"])
    }

    @Test func theKeySetIsMadeOnceWhenManyThreadsReadItAtOnce() async {
        let change = FeatureChange(distinctKeys: (0..<5_000).map { "k\($0)" }, origin: .local)
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 { group.addTask { change.keys.count } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 5_000, count: 8))
        #expect(change.keyCount == 5_000)
    }
}
