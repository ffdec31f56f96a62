import Foundation
import Testing

@testable import FlagstaffUnleash

/// Evaluations running on many threads while the state is swapped underneath them.
@Suite struct ConcurrencyTests {
    @Test func evaluationsStayConsistentWhileStatesAreSwapped() async throws {
        // State "on": every flag on (with a regex, a segment and variants); state "off": every flag off.
        func state(enabled: Bool) throws -> Data {
            try TestState.body(
                features: [
                    TestState.feature("plain", enabled: enabled),
                    TestState.feature(
                        "guarded", enabled: enabled,
                        strategies: [
                            [
                                "name": "flexibleRollout", "parameters": ["rollout": "100", "groupId": "g"],
                                "segments": [1],
                                "constraints": [TestState.constraint("email", "REGEX", value: "@example\\.com$")],
                            ]
                        ]),
                    TestState.feature(
                        "variants", enabled: enabled, extra: ["variants": [["name": "only", "weight": 1]]]),
                ],
                segments: [["id": 1, "constraints": [TestState.constraint("country", "IN", values: ["no"])]]])
        }
        let on = try state(enabled: true)
        let off = try state(enabled: false)
        let engine = UnleashEngine()
        try engine.takeState(on)
        let context = UnleashContext(userId: "u", properties: ["email": "a@example.com", "country": "no"])

        let inconsistent = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                for round in 0..<300 { try engine.takeState(round.isMultiple(of: 2) ? off : on) }
                try engine.takeState(on)
                return 0
            }
            for _ in 0..<4 {
                group.addTask {
                    var problems = 0
                    for _ in 0..<3000 {
                        let plain = engine.isEnabled("plain", context: context)
                        _ = engine.isEnabled("guarded", context: context)
                        let variant = engine.variant("variants", context: context)
                        // A variant is either the real one with the flag on or disabled with the flag off.
                        let valid =
                            (variant.name == "only" && variant.enabled && variant.featureEnabled)
                            || variant == .disabled(featureEnabled: false)
                        if !valid { problems += 1 }
                        _ = plain
                        _ = engine.featureNames
                    }
                    return problems
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(inconsistent == 0)
        // After the last swap the "on" state is in force.
        #expect(engine.isEnabled("plain", context: context))
        #expect(engine.isEnabled("guarded", context: context))
        #expect(
            !engine.isEnabled(
                "guarded",
                context: UnleashContext(userId: "u", properties: ["email": "a@example.org", "country": "no"])))
        #expect(engine.variant("variants", context: context).name == "only")
    }
}
