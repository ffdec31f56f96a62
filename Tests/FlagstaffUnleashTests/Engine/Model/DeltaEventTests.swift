import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite struct DeltaEventTests {
    private func events(_ list: [[String: Any]]) throws -> Data {
        try JSONSerialization.data(withJSONObject: ["events": list])
    }

    private let segmentFeature = TestState.feature("segmented", strategies: [["name": "default", "segments": [7]]])

    @Test func hydrationReplacesEverything() throws {
        let engine = try TestState.engine([TestState.feature("old")])
        try engine.takeState(
            events([
                ["eventId": 1, "type": "hydration", "features": [TestState.feature("new")], "segments": []]
            ]))
        #expect(engine.featureNames == ["new"])
        #expect(!engine.isEnabled("old", context: UnleashContext()))
        #expect(engine.isEnabled("new", context: UnleashContext()))
    }

    @Test func updatesAndRemovalsApplyInOrder() throws {
        let engine = try TestState.engine([TestState.feature("a"), TestState.feature("b")])
        try engine.takeState(
            events([
                ["eventId": 2, "type": "feature-updated", "feature": TestState.feature("a", enabled: false)],
                ["eventId": 3, "type": "feature-updated", "feature": TestState.feature("c")],
                ["eventId": 4, "type": "feature-removed", "featureName": "b", "project": "default"],
                ["eventId": 5, "type": "some-future-event"],
            ]))
        #expect(engine.featureNames == ["a", "c"])
        #expect(!engine.isEnabled("a", context: UnleashContext()))
        #expect(!engine.isEnabled("b", context: UnleashContext()))
        #expect(engine.isEnabled("c", context: UnleashContext()))
    }

    @Test func segmentChangesReachFeaturesThatUseThem() throws {
        let engine = UnleashEngine()
        let inNorway = UnleashContext(properties: ["country": "norway"])
        try engine.takeState(
            events([
                ["eventId": 1, "type": "feature-updated", "feature": segmentFeature]
            ]))
        #expect(!engine.isEnabled("segmented", context: inNorway), "a missing segment keeps the strategy off")
        try engine.takeState(
            events([
                [
                    "eventId": 2, "type": "segment-updated",
                    "segment": ["id": 7, "constraints": [TestState.constraint("country", "IN", values: ["norway"])]],
                ]
            ]))
        #expect(engine.isEnabled("segmented", context: inNorway))
        #expect(!engine.isEnabled("segmented", context: UnleashContext(properties: ["country": "sweden"])))
        try engine.takeState(events([["eventId": 3, "type": "segment-removed", "segmentId": 7]]))
        #expect(!engine.isEnabled("segmented", context: inNorway))
    }

    @Test func malformedEventNamesItsPath() throws {
        let engine = UnleashEngine()
        #expect {
            try engine.takeState(
                events([
                    ["eventId": 1, "type": "feature-updated", "feature": TestState.feature("a")],
                    ["eventId": 2, "type": "feature-removed"],
                ]))
        } throws: { error in
            (error as? UnleashStateError)?.path == "events[1].featureName"
        }
        #expect(engine.featureNames.isEmpty, "a failed delta applies none of its events")
    }
}
