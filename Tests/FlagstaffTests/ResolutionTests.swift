@testable import Flagstaff
import Foundation
import Synchronization
import Testing

@Suite struct ResolutionTests {
    @Test func staticDefaultsAndOverrides() {
        let features = AppFeatures()
        #expect(!features.blueText.enabled)
        #expect(features.debugLogging.enabled)
        #expect(features.blueText.resolution.source == .static)
        features.blueText.override = .enabled
        #expect(features.blueText.enabled)
        #expect(features.blueText.resolution == Resolution(value: true, source: .override, chain: [
            ResolutionStep(source: .override, value: true),
            ResolutionStep(source: .static, value: false),
        ]))
        features.debugLogging.override = .disabled
        #expect(!features.debugLogging.enabled)
        features.debugLogging.override = .featureDefault
        #expect(features.debugLogging.enabled)
        #expect(features.debugLogging.resolution.chain.first == ResolutionStep(source: .override, value: nil, detail: "not overridden"))
    }

    @Test func buildTargetDefaultFollowsDeclaredTarget() {
        let features = AppFeatures()
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

    @Test func dynamicFeatureCachingInterval() async throws {
        let calls = Atomic<Int>(0)
        let flag = DynamicFeature(key: "d", caching: .interval(.milliseconds(30))) { _ in
            calls.add(1, ordering: .relaxed)
            return true
        }
        for _ in 0..<10 { _ = flag.enabled }
        #expect(calls.load(ordering: .relaxed) == 1)
        try await Task.sleep(for: .milliseconds(50))
        _ = flag.enabled
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test func overrideWinsOverDynamic() {
        let features = AppFeatures()
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
