import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite struct EvaluationReasonTests {
    private let engine: UnleashEngine

    init() throws {
        engine = try TestState.engine([
            TestState.feature("off", enabled: false),
            TestState.feature("bare", strategies: []),
            TestState.feature(
                "second",
                strategies: [
                    ["name": "userWithId", "parameters": ["userIds": "1"]],
                    [
                        "name": "flexibleRollout", "parameters": ["rollout": "100", "groupId": "g"],
                        "variants": [["name": "v", "weight": 1, "payload": ["type": "string", "value": "p"]]],
                    ],
                ]),
            TestState.feature("none", strategies: [["name": "userWithId", "parameters": ["userIds": "1"]]]),
            TestState.feature(
                "unusable",
                strategies: [["name": "default", "constraints": [TestState.constraint("x", "BOGUS", value: "1")]]]),
            TestState.feature("orphan", extra: ["dependencies": [["feature": "missing"]]]),
            TestState.feature("needsOff", extra: ["dependencies": [["feature": "bare", "enabled": false]]]),
            TestState.feature("needsVariant", extra: ["dependencies": [["feature": "second", "variants": ["w"]]]]),
        ])
    }

    @Test func reasonsNameWhatDecided() {
        let user2 = UnleashContext(userId: "2")
        let second = engine.evaluate("second", context: user2)
        #expect(second.enabled)
        #expect(second.matchedStrategy == 1)
        #expect(second.reason == "on: strategy 2 of 2 (flexibleRollout) matched")
        #expect(
            second.variant
                == UnleashVariant(
                    name: "v", enabled: true, featureEnabled: true, payload: UnleashPayload(type: "string", value: "p"))
        )

        #expect(engine.evaluate("bare", context: user2).reason == "on: switched on and has no strategies")
        #expect(engine.evaluate("off", context: user2).reason == "off: switched off in this environment")
        #expect(engine.evaluate("none", context: user2).reason == "off: none of the 1 strategies matched (userWithId)")
        #expect(engine.evaluate("unusable", context: user2).reason.hasPrefix("off: the definition cannot be used ("))
        #expect(engine.evaluate("unusable", context: user2).reason.contains("BOGUS"))
        #expect(
            engine.evaluate("orphan", context: user2).reason
                == "off: depends on \"missing\", which the state does not have")
        #expect(engine.evaluate("needsOff", context: user2).reason == "off: needs \"bare\" to be off")
        #expect(
            engine.evaluate("needsVariant", context: user2).reason == "off: needs \"second\" to be on with variant w")
        let unknown = engine.evaluate("nope", context: user2)
        #expect(!unknown.enabled)
        #expect(unknown.variant == .disabled(featureEnabled: false))
        #expect(unknown.reason == "off: the state has no flag of this name")
    }

    @Test func evaluationAgreesWithSeparateCalls() {
        for name in engine.featureNames + ["nope"] {
            for user in ["1", "2", "3"] {
                let context = UnleashContext(userId: user)
                let evaluation = engine.evaluate(name, context: context)
                #expect(evaluation.enabled == engine.isEnabled(name, context: context), "\(name) \(user)")
                #expect(evaluation.variant == engine.variant(name, context: context), "\(name) \(user)")
                #expect(evaluation.flag == name)
            }
        }
    }
}
