import FlagstaffTesting
import Foundation
import Synchronization
import Testing

@testable import Flagstaff

@Suite struct ResolutionTests {
    @Test func staticDefaultsAndOverrides() {
        let features = FeatureRegistry(AppFeatures())
        #expect(!features.blueText.enabled)
        #expect(features.debugLogging.enabled)
        #expect(features.blueText.resolution.source == .static)
        features.blueText.override = .enabled
        #expect(features.blueText.enabled)
        #expect(
            features.blueText.resolution
                == Resolution(
                    value: true, source: .override,
                    chain: [
                        ResolutionStep(source: .override, value: true),
                        ResolutionStep(source: .static, value: false),
                    ]))
        features.debugLogging.override = .disabled
        #expect(!features.debugLogging.enabled)
        features.debugLogging.override = .featureDefault
        #expect(features.debugLogging.enabled)
        #expect(
            features.debugLogging.resolution.chain.first
                == ResolutionStep(source: .override, value: nil, detail: "not overridden"))
    }

    /// What an app prints is the CLI's words, not a dump of the types (issue 35).
    @Test func resolutionsSourcesAndOverrideStatesPrintReadableText() throws {
        let features = FeatureRegistry(TypedFeatures(), options: RegistryOptions(storeWatchInterval: nil))
        features.blueText.override = .enabled
        #expect("\(features.blueText.resolution)" == "ON by override (override ON, default OFF)")
        #expect("\(features.blueText.override)" == "on" && "\(OverrideState.featureDefault)" == "default")
        features.maxItems.overriddenValue = 50
        #expect("\(features.maxItems.explanation)".hasPrefix("50 by override (override 50"))
        #expect("\(ResolutionSource.remote(provider: "Firebase", fetchedAt: nil))" == "remote (Firebase)")
        #expect("\(ResolutionSource.buildTarget(.debug))" == "build target (debug)")
        #expect("\(ResolutionSource.static)" == "default")
    }

    @Test func buildTargetDefaultFollowsDeclaredTarget() {
        let features = FeatureRegistry(AppFeatures())
        #expect(BuildTarget.compiled == .debug)  // tests build in debug
        defer { BuildTarget.declare(nil) }
        BuildTarget.declare(.production)
        #expect(!features.internalTools.enabled)
        #expect(features.internalTools.resolution.source == .buildTarget(.production))
        BuildTarget.declare(.internal)
        #expect(features.internalTools.enabled)
        #expect(BuildTarget.current == .internal)
        BuildTarget.declare(nil)
        #expect(BuildTarget.current == .debug)
        #expect(features.internalTools.enabled)
    }

    @Test func dynamicFeatureComputesOnEveryReadByDefault() {
        let calls = Atomic<Int>(0)
        let flag = DynamicFeature(key: "d") { _ in calls.add(1, ordering: .relaxed).newValue.isMultiple(of: 2) }
        let values = (0..<4).map { _ in flag.enabled }
        #expect(values == [false, true, false, true])
        #expect(calls.load(ordering: .relaxed) == 4)
        #expect(flag.resolution.source == .dynamic)
    }

    @Test func dynamicFeatureCachingOnce() {
        let calls = Atomic<Int>(0)
        let flag = DynamicFeature(key: "d", caching: .once) { _ in calls.add(1, ordering: .relaxed).newValue == 1 }
        #expect(flag.enabled && flag.enabled && flag.enabled)
        #expect(calls.load(ordering: .relaxed) == 1)
        flag.invalidateCache()
        #expect(!flag.enabled)
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test func dynamicFeatureCachingIntervalFollowsItsClock() {
        let calls = Atomic<Int>(0)
        let clock = ManualClock()
        let flag = DynamicFeature(key: "d", caching: .interval(.seconds(30)), clock: clock) { _ in
            calls.add(1, ordering: .relaxed).newValue.isMultiple(of: 2)
        }
        #expect((0..<10).allSatisfy { _ in !flag.enabled })
        #expect(calls.load(ordering: .relaxed) == 1)
        clock.advance(by: .seconds(29))
        #expect(!flag.enabled)
        #expect(calls.load(ordering: .relaxed) == 1)
        clock.advance(by: .seconds(1))
        #expect(flag.enabled, "recomputed once the interval has passed")
        #expect(calls.load(ordering: .relaxed) == 2)
        clock.advance(by: .seconds(10))
        #expect(flag.enabled)
        flag.invalidateCache()
        #expect(!flag.enabled)
        #expect(calls.load(ordering: .relaxed) == 3)
    }

    @Test func dynamicCacheWordPacksValueAndTime() {
        #expect(CachedValue.value(of: CachedValue.empty) == nil)
        for value in [false, true] {
            for time: Duration in [
                .zero, .nanoseconds(1), .seconds(30), .seconds(86_400 * 365 * 100) + .nanoseconds(7),
            ] {
                let word = CachedValue.word(value, at: time)
                #expect(CachedValue.value(of: word) == value)
                #expect(CachedValue.time(of: word) == time)
            }
            // Beyond 2^62 ns (146 years) the time saturates instead of spilling into the flag bits.
            let far = CachedValue.word(value, at: .seconds(Int64.max))
            #expect(CachedValue.value(of: far) == value)
            #expect(CachedValue.time(of: far) > .seconds(4_000_000_000))
        }
    }

    @Test func overrideWinsOverDynamic() {
        let features = FeatureRegistry(AppFeatures())
        features.tuesdayExperiment.override = .enabled
        #expect(features.tuesdayExperiment.enabled)
        features.tuesdayExperiment.override = .disabled
        #expect(!features.tuesdayExperiment.enabled)
    }

    @Test func featureOutsideRegistryKeepsOverrideInMemory() {
        let loose = Feature(key: "loose")
        loose.override = .enabled
        #expect(loose.enabled && loose.override == .enabled)
        #expect(loose.registry == nil)
    }

    @Test func labelFormatter() {
        #expect(LabelFormatter.humanize("newURLFormat") == "New URL Format")
        #expect(LabelFormatter.humanize("isLikeButtonForMomentEnabled") == "Is Like Button For Moment Enabled")
        #expect(LabelFormatter.humanize("list.infiniteScroll") == "Infinite Scroll")
        #expect(LabelFormatter.humanize("dark_mode-v2") == "Dark Mode V 2")
        #expect(LabelFormatter.humanize("HTTP2Enabled") == "HTTP 2 Enabled")
        #expect(LabelFormatter.humanize("x") == "X")
    }

    @Test func overrideStateWords() {
        #expect(OverrideState(word: "ON") == .enabled)
        #expect(OverrideState(word: "off") == .disabled)
        #expect(OverrideState(word: "default") == .featureDefault)
        #expect(OverrideState(word: "maybe") == nil)
        #expect(OverrideState.allCases.map(\.storageWord) == ["default", "on", "off"])
    }
}
