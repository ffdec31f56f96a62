import Foundation
import Testing

@testable import FlagstaffUnleash

/// Applies a sequence of delta documents (`{"events": [...]}`) to a full state, in ``UnleashEngine`` and in the
/// reference engine (yggdrasil-engine), and compares every flag for generated contexts after each step: segment
/// updates and removals must reach the strategies that use them, feature updates replace, removals remove,
/// hydration starts over.
@Suite(.enabled(if: DifferentialReference.isAvailable, DifferentialReference.skipComment))
struct DifferentialDeltaTests {
    private static func object(_ json: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(json.utf8))
    }

    static let base = """
        {"version": 2,
         "segments": [
           {"id": 1, "constraints": [{"contextName": "appName", "operator": "IN", "values": ["web", "ios"]}]},
           {"id": 2, "constraints": [{"contextName": "plan", "operator": "IN", "values": ["pro"]}]},
           {"id": 3, "constraints": [{"contextName": "version", "operator": "SEMVER_GTE", "value": "2.0.0"}]}],
         "features": [
           {"name": "seg.one", "enabled": true, "strategies": [{"name": "default", "segments": [1]}]},
           {"name": "seg.two.three", "enabled": true,
            "strategies": [{"name": "flexibleRollout", "segments": [2, 3],
                            "parameters": {"rollout": "60", "stickiness": "default", "groupId": "g"}}]},
           {"name": "plain", "enabled": true, "strategies": [{"name": "userWithId", "parameters": {"userIds": "1,2,3,4,5"}}],
            "variants": [{"name": "a", "weight": 1}, {"name": "b", "weight": 3}]},
           {"name": "child", "enabled": true, "dependencies": [{"feature": "plain"}], "strategies": []}]}
        """

    /// Each step is one delta document, applied after all the steps before it.
    static let steps = [
        #"{"events": [{"eventId": 2, "type": "segment-updated", "segment": {"id": 1, "constraints": [{"contextName": "appName", "operator": "IN", "values": ["android"]}]}}]}"#,
        #"{"events": [{"eventId": 3, "type": "feature-updated", "feature": {"name": "plain", "enabled": true, "strategies": [{"name": "flexibleRollout", "parameters": {"rollout": "40", "stickiness": "userId", "groupId": "plain"}}], "variants": [{"name": "c", "weight": 2, "stickiness": "userId"}, {"name": "d", "weight": 2, "stickiness": "userId"}]}}]}"#,
        #"{"events": [{"eventId": 4, "type": "segment-removed", "segmentId": 3}, {"eventId": 5, "type": "feature-updated", "feature": {"name": "new.seg.two", "enabled": true, "strategies": [{"name": "default", "segments": [2]}]}}]}"#,
        #"{"events": [{"eventId": 6, "type": "feature-removed", "featureName": "plain", "project": "default"}, {"eventId": 7, "type": "segment-updated", "segment": {"id": 3, "constraints": [{"contextName": "version", "operator": "SEMVER_LT", "value": "3.0.0"}]}}]}"#,
        #"{"events": [{"eventId": 8, "type": "hydration", "segments": [{"id": 2, "constraints": [{"contextName": "plan", "operator": "NOT_IN", "values": ["pro"]}]}], "features": [{"name": "seg.two.three", "enabled": true, "strategies": [{"name": "default", "segments": [2]}]}, {"name": "seg.one", "enabled": false, "strategies": []}]}]}"#,
    ]

    @Test("delta events give the same answers as the reference after every step")
    func deltaSequence() async throws {
        let base = try Self.object(Self.base)
        let steps = try Self.steps.map(Self.object)
        // Contexts draw on every value the base and the steps mention.
        var features: [Any] = (base as? [String: Any])?["features"] as? [Any] ?? []
        var segments: [Any] = (base as? [String: Any])?["segments"] as? [Any] ?? []
        for step in steps {
            for event in (step as? [String: Any])?["events"] as? [[String: Any]] ?? [] {
                if let feature = event["feature"] { features.append(feature) }
                if let segment = event["segment"] { segments.append(segment) }
                features += event["features"] as? [Any] ?? []
                segments += event["segments"] as? [Any] ?? []
            }
        }
        var generator = DifferentialContextGenerator(
            state: ["features": features, "segments": segments] as [String: Any], seed: 0xDE17A)
        let contexts = generator.contexts(count: 150)

        let queries = try DifferentialQueries(contexts: contexts, flags: generator.flags)

        let engine = UnleashEngine()
        try engine.takeState(Data(Self.base.utf8))
        for stepCount in 0...steps.count {
            if stepCount > 0 { try engine.takeState(Data(Self.steps[stepCount - 1].utf8)) }
            let reference = try await DifferentialReference.answers(
                state: base, updates: Array(steps.prefix(stepCount)), queries: queries)
            var mismatches: [String] = []
            for (index, expected) in reference.enumerated() {
                let query = queries.query(index)
                let evaluation = engine.evaluate(query.flag, context: query.context)
                if evaluation.enabled != expected.enabled || evaluation.variant != expected.variant {
                    mismatches.append(
                        "after \(stepCount) step(s): flag \(query.flag) context \(query.json): "
                            + "reference \(expected.enabled) \(expected.variant.name), "
                            + "flagstaff \(evaluation.enabled) \(evaluation.variant.name)")
                }
            }
            #expect(reference.count == queries.count)
            if !mismatches.isEmpty {
                let firstOnes = mismatches.prefix(10).joined(separator: "\n")
                Issue.record(
                    "\(mismatches.count) of \(queries.count) queries differ from yggdrasil-engine:\n\(firstOnes)")
            }
        }
        #expect(engine.featureNames == ["seg.two.three", "seg.one"], "hydration replaces the whole state")
    }
}
