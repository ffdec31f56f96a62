import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Observation
import Synchronization
import Testing

@testable import Flagstaff

/// Flags and settings with the Observation framework: reads inside `withObservationTracking` are told of a change
/// of the value from every source, and only of a change of what they read.
@Suite struct ObservationTests {
    let directory = temporaryDirectory()
    var file: URL { directory.appendingPathComponent("overrides.json") }
    let clock = ManualClock()

    private func registry(_ store: any OverrideStore = InMemoryOverrideStore()) -> FeatureRegistry<TypedFeatures> {
        FeatureRegistry(
            TypedFeatures(), store: store,
            options: RegistryOptions(storeWatchInterval: nil, clock: clock, launchOverrides: .none, wallClock: clock))
    }

    @Test func anOverrideInThisProcessIsAnnouncedToReadersOfTheFlagAndTheSetting() throws {
        let features = registry()
        let flag = ObservedCalls { _ = features.blueText.enabled }
        let setting = ObservedCalls { _ = features.maxItems.value }
        let other = ObservedCalls { _ = features.cardColor.value }
        features.blueText.override = .enabled
        #expect(flag.fired)
        #expect(!setting.fired)
        features.maxItems.overriddenValue = 50
        #expect(setting.fired)
        #expect(!other.fired, "a member whose value did not change is not announced")
        #expect(features.maxItems.value == 50)
    }

    @Test func onlyAChangeOfTheEffectiveValueIsAnnouncedToValueReadersAndAnOverrideChangeToOverrideReaders() throws {
        let features = registry()
        // A setting forced to its default: its value does not change, its override does.
        let value = ObservedCalls { _ = features.compact.value }
        let override = ObservedCalls { _ = features.compact.overriddenValue }
        features.compact.overriddenValue = false
        #expect(!value.fired, "forcing the default value leaves the value as it was")
        #expect(override.fired)
        // An invalid value is refused: nothing changes, nothing is announced.
        let refused = ObservedCalls { _ = features.maxItems.value }
        features.maxItems.overriddenValue = 500
        #expect(!refused.fired)
        // Reads outside tracking are not announced to anyone, and a later change still reaches a new tracker.
        _ = features.blueText.enabled
        let later = ObservedCalls { _ = features.blueText.override }
        features.blueText.override = .disabled
        #expect(later.fired)
    }

    @Test func anotherStoreObjectWritingTheFileIsAnnouncedWhenTheRegistryReloads() throws {
        let features = registry(try FileOverrideStore(url: file))
        let flag = ObservedCalls { _ = features.blueText.enabled }
        let setting = ObservedCalls { _ = features.layout.columns.value }
        // Another process: its own store object on the same file.
        _ = try FileOverrideStore(url: file).write([
            "blueText": .set(.on), "layout.columns": .set(try OverrideValue(json: "5")),
        ])
        #expect(!flag.fired, "not before the registry reads the store")
        features.refreshFromStore()
        #expect(flag.fired)
        #expect(setting.fired)
        #expect(features.blueText.enabled && features.layout.columns.value == 5)
    }

    @Test func theStoreWatcherAnnouncesAnotherProcessesChange() async throws {
        let features = FeatureRegistry(
            TypedFeatures(), store: try FileOverrideStore(url: file),
            options: RegistryOptions(storeWatchInterval: .seconds(1), clock: clock, launchOverrides: .none))
        let flag = ObservedCalls { _ = features.blueText.enabled }
        _ = try FileOverrideStore(url: file).write(["blueText": .set(.on)])
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(1))
        #expect(await eventually { flag.fired })
    }

    @Test func aRemoteActivationIsAnnouncedToReadersOfBoundSettings() throws {
        let source = FakeSettingSource()
        let color = Setting(default: "#f05138", remote: SettingRemoteBinding(source: source, key: "cardColor"))
        let registry = AnyFeatureRegistry(options: RegistryOptions(storeWatchInterval: nil, launchOverrides: .none))
        try registry.register(Setting(default: 1, key: "unbound"))
        try registry.register(Setting(default: "#f05138", key: "color", remote: color.remoteBinding))
        let bound = try #require(registry.feature(forKey: "color") as? Setting<String>)
        let tracked = ObservedCalls { _ = bound.value }
        source.set("cardColor", "#0000ff")
        registry.notifyRemoteChange(keys: ["color"])
        #expect(tracked.fired)
        #expect(bound.value == "#0000ff")
        // An activation that leaves the value as it was is not announced.
        let again = ObservedCalls { _ = bound.value }
        source.set("other", "x")
        registry.notifyRemoteChange(keys: ["color"])
        #expect(!again.fired)
    }

    @Test func anExpiryIsAnnounced() async throws {
        let features = registry(try FileOverrideStore(url: file, wallClock: clock))
        try features.setOverrideValues(["blueText": .set(.on)], expiresAt: clock.date + 60)
        let flag = ObservedCalls { _ = features.blueText.enabled }
        try await clock.waitForSleepers()
        clock.advance(by: .seconds(60))
        #expect(await eventually { flag.fired })
        #expect(!features.blueText.enabled)
    }

    @Test func anUndoIsAnnounced() throws {
        let features = registry(try FileOverrideStore(url: file))
        features.maxItems.overriddenValue = 30
        let setting = ObservedCalls { _ = features.maxItems.value }
        let override = ObservedCalls { _ = features.maxItems.overriddenValue }
        try ChangeHistory(features).undo()
        #expect(setting.fired)
        #expect(override.fired)
        #expect(features.maxItems.value == 20)
    }

    @Test func membersOutsideARegistryAnnounceTheirOwnChanges() {
        let flag = Feature()
        let tracked = ObservedCalls { _ = flag.enabled }
        flag.override = .enabled
        #expect(tracked.fired)
        let setting = Setting(default: 3)
        let value = ObservedCalls { _ = setting.value }
        setting.overriddenValue = 4
        #expect(value.fired)
    }

    @Test func aBulkChangeAnnouncesTheObservedMembersItChanged() throws {
        let registry = AnyFeatureRegistry(options: RegistryOptions(storeWatchInterval: nil, launchOverrides: .none))
        let flags = (0..<20_000).map { Feature(key: "flag\($0)") }
        try registry.register(flags)
        let watched = ObservedCalls { _ = flags[7].enabled }
        let untouched = ObservedCalls { _ = flags[8].enabled }
        try registry.setOverrideValues(
            Dictionary(uniqueKeysWithValues: flags.enumerated().map { ($1.key, $0 == 8 ? .remove : .set(.on)) }))
        #expect(watched.fired)
        #expect(!untouched.fired)
        #expect(registry.core.observedChanges.withLock { $0.isEmpty }, "nothing left queued")
    }

    @Test func toolsReadingTypeErasedValuesMakeNoObservationState() {
        let features = registry()
        for member in features.allFeatures { _ = (member.currentValue, member.overrideValue, member.isPendingRestart) }
        let observed = { features.allFeatures.filter { $0.observation.isPublished }.map(\.key) }
        #expect(observed().isEmpty)
        _ = features.blueText.enabled
        #expect(observed() == ["blueText"])
    }

    @Test func aTestOverrideDoesNotHideChangesFromTrackers() {
        let features = registry()
        let tracked = withFeature(features.blueText).enabled {
            ObservedCalls { #expect(features.blueText.enabled) }
        }
        features.blueText.override = .enabled
        #expect(tracked.fired)
    }

    @Test func aSettingsTestOverrideDoesNotHideChangesFromTrackers() {
        let features = registry()
        let tracked = withSetting(features.maxItems, value: 7) {
            ObservedCalls { #expect(features.maxItems.value == 7) }
        }
        let observed = features.maxItems.observation.isPublished
        #expect(observed, "the forced read made the observation state")
        features.maxItems.overriddenValue = 50
        #expect(tracked.fired)
    }

    @Test func everyReadPathOfASettingIsTracked() {
        let features = registry()
        let source = FakeSettingSource()
        source.set("maxItems", "42")
        features.maxItems.bind(to: SettingRemoteBinding(source: source, key: "maxItems"))
        // The remote word, the override word, the published state (a String override), the declared default.
        let remote = ObservedCalls { #expect(features.maxItems.value == 42) }
        features.maxItems.overriddenValue = 50
        #expect(remote.fired)
        let overridden = ObservedCalls { #expect(features.maxItems.value == 50) }
        features.maxItems.overriddenValue = nil
        #expect(overridden.fired)
        features.cardColor.overriddenValue = "#000000"
        let published = ObservedCalls { #expect(features.cardColor.value == "#000000") }
        features.cardColor.overriddenValue = nil
        #expect(published.fired)
        let declared = ObservedCalls { #expect(features.cardColor.value == "#f05138") }
        features.cardColor.overriddenValue = "#ffffff"
        #expect(declared.fired)
    }

    @Test func invalidatingADynamicFlagsCacheAnnouncesANewValueOnly() {
        let source = Atomic<Bool>(false)
        let flag = DynamicFeature(key: "dynamic", caching: .once) { _ in source.load(ordering: .acquiring) }
        let unchanged = ObservedCalls { _ = flag.enabled }
        flag.invalidateCache()
        #expect(!unchanged.fired, "the closure gives the same value: nothing to announce")
        source.store(true, ordering: .releasing)
        #expect(!unchanged.fired && !flag.enabled, "the cached value stands until the cache is invalidated")
        let tracked = ObservedCalls { _ = flag.enabled }
        flag.invalidateCache()
        #expect(tracked.fired)
        #expect(flag.enabled)
    }
}
