import Foundation
import Testing

@testable import FlagstaffUnleash

/// Strategy behaviour beyond the specification's cases; expectations come from yggdrasil-engine 2.0.0's answers.
@Suite struct StrategyTests {
    @Test func userIdsAreTrimmedAndEmptyEntriesCount() throws {
        let engine = try TestState.engine([
            TestState.feature("ids", strategies: [["name": "userWithId", "parameters": ["userIds": " a ,b,,c "]]])
        ])
        #expect(engine.isEnabled("ids", context: UnleashContext(userId: "a")))
        #expect(engine.isEnabled("ids", context: UnleashContext(userId: "c")))
        #expect(engine.isEnabled("ids", context: UnleashContext(userId: "")))
        #expect(!engine.isEnabled("ids", context: UnleashContext(userId: "d")))
        #expect(!engine.isEnabled("ids", context: UnleashContext()))
    }

    @Test func remoteAddressAcceptsRangesAndSkipsInvalidEntries() throws {
        let engine = try TestState.engine([
            TestState.feature(
                "ips",
                strategies: [
                    ["name": "remoteAddress", "parameters": ["IPs": "192.invalid, 10.0.0.0/8, 1.2.3.4, 2001:db8::/32"]]
                ])
        ])
        #expect(engine.isEnabled("ips", context: UnleashContext(remoteAddress: "10.2.3.4")))
        #expect(engine.isEnabled("ips", context: UnleashContext(remoteAddress: "1.2.3.4")))
        #expect(engine.isEnabled("ips", context: UnleashContext(remoteAddress: "2001:db8:1::5")))
        #expect(!engine.isEnabled("ips", context: UnleashContext(remoteAddress: "192.invalid")))
        #expect(!engine.isEnabled("ips", context: UnleashContext(remoteAddress: " 1.2.3.4")))
        #expect(!engine.isEnabled("ips", context: UnleashContext(remoteAddress: "11.0.0.1")))
    }

    @Test func applicationHostnameComparesWithoutCase() throws {
        let state = [
            TestState.feature(
                "host", strategies: [["name": "applicationHostname", "parameters": ["hostNames": "web-1, Build-Box"]]])
        ]
        #expect(try TestState.engine(state, hostname: "build-box").isEnabled("host", context: UnleashContext()))
        #expect(try !TestState.engine(state, hostname: "laptop").isEnabled("host", context: UnleashContext()))
    }

    @Test func flexibleRolloutDefaultsGroupIdToTheFeatureName() throws {
        let engine = try TestState.engine([
            TestState.feature(
                "named",
                strategies: [["name": "flexibleRollout", "parameters": ["rollout": "30", "stickiness": "userId"]]]),
            TestState.feature(
                "explicit",
                strategies: [
                    [
                        "name": "flexibleRollout",
                        "parameters": ["rollout": "30", "stickiness": "userId", "groupId": "named"],
                    ]
                ]),
        ])
        var enabledCount = 0
        for user in 0..<200 {
            let context = UnleashContext(userId: String(user))
            let named = engine.isEnabled("named", context: context)
            #expect(named == engine.isEnabled("explicit", context: context))
            if named { enabledCount += 1 }
        }
        #expect((40...80).contains(enabledCount), "about 30% of 200 users, got \(enabledCount)")
    }

    @Test func rolloutBucketsFollowMurmurNormalisation() throws {
        let engine = try TestState.engine([
            TestState.feature(
                "half",
                strategies: [["name": "gradualRolloutUserId", "parameters": ["percentage": "50", "groupId": "g"]]])
        ])
        for user in 0..<50 {
            let id = String(user)
            let bucket = Int(MurmurHash3.hash(prefix: Array("g:".utf8), identifier: id, seed: 0) % 100) + 1
            #expect(engine.isEnabled("half", context: UnleashContext(userId: id)) == (bucket <= 50))
        }
    }

    @Test func strategiesThatCannotMatch() throws {
        let engine = try TestState.engine([
            TestState.feature(
                "noGroup", strategies: [["name": "gradualRolloutUserId", "parameters": ["percentage": "100"]]]),
            TestState.feature(
                "fraction",
                strategies: [
                    ["name": "flexibleRollout", "parameters": ["rollout": "50.5", "groupId": "g"]], ["name": "default"],
                ]),
            TestState.feature("custom", strategies: [["name": "custom"], ["name": "default"]]),
            TestState.feature("onlyCustom", strategies: [["name": "custom"]]),
            TestState.feature(
                "customStickinessMissing",
                strategies: [
                    [
                        "name": "flexibleRollout",
                        "parameters": ["rollout": "100", "stickiness": "tenant", "groupId": "g"],
                    ]
                ]),
        ])
        let user = UnleashContext(userId: "1")
        #expect(!engine.isEnabled("noGroup", context: user))
        #expect(engine.isEnabled("fraction", context: user), "a non-integer rollout only disables its own strategy")
        #expect(engine.isEnabled("custom", context: user))
        #expect(!engine.isEnabled("onlyCustom", context: user))
        #expect(!engine.isEnabled("customStickinessMissing", context: user))
        #expect(engine.isEnabled("customStickinessMissing", context: UnleashContext(properties: ["tenant": "t"])))
    }

    @Test func percentagesAboveHundredTurnTheWholeFeatureOff() throws {
        let engine = try TestState.engine([
            TestState.feature(
                "flex",
                strategies: [
                    ["name": "flexibleRollout", "parameters": ["rollout": "150", "groupId": "g"]], ["name": "default"],
                ]),
            TestState.feature(
                "grad",
                strategies: [
                    ["name": "gradualRolloutUserId", "parameters": ["percentage": "150", "groupId": "g"]],
                    ["name": "default"],
                ]),
            TestState.feature(
                "quote",
                strategies: [
                    ["name": "flexibleRollout", "parameters": ["rollout": "50", "groupId": "a\"b"]],
                    ["name": "default"],
                ]),
        ])
        for name in ["flex", "grad", "quote"] {
            #expect(!engine.isEnabled(name, context: UnleashContext(userId: "1")), "\(name)")
            #expect(engine.variant(name, context: UnleashContext(userId: "1")) == .disabled(featureEnabled: false))
        }
    }

    @Test func variantOverridesWinOverBuckets() throws {
        let engine = try TestState.engine([
            TestState.feature(
                "v",
                extra: [
                    "variants": [
                        ["name": "a", "weight": 1, "overrides": [["contextName": "country", "values": ["no"]]]],
                        ["name": "b", "weight": 999, "payload": ["type": "json", "value": "{\"x\":1}"]],
                    ]
                ])
        ])
        #expect(engine.variant("v", context: UnleashContext(userId: "7", properties: ["country": "no"])).name == "a")
        let other = engine.variant("v", context: UnleashContext(userId: "7", properties: ["country": "se"]))
        #expect(
            other
                == UnleashVariant(
                    name: "b", enabled: true, featureEnabled: true,
                    payload: UnleashPayload(type: "json", value: "{\"x\":1}")))
    }

    @Test func unusableTotalWeightsGiveTheDisabledVariant() throws {
        let engine = try TestState.engine([
            TestState.feature("zero", extra: ["variants": [["name": "a", "weight": 0], ["name": "b", "weight": 0]]]),
            TestState.feature(
                "overflow", extra: ["variants": [["name": "a", "weight": Int.max], ["name": "b", "weight": Int.max]]]),
            TestState.feature("huge", extra: ["variants": [["name": "a", "weight": 5_000_000_000]]]),
        ])
        for name in ["zero", "overflow", "huge"] {
            #expect(
                engine.variant(name, context: UnleashContext(userId: "1")) == .disabled(featureEnabled: true), "\(name)"
            )
        }
    }

    @Test func defaultVariantStickinessIgnoresTheRemoteAddress() throws {
        let engine = try TestState.engine([
            TestState.feature("v", extra: ["variants": [["name": "a", "weight": 50], ["name": "b", "weight": 50]]])
        ])
        // Like the reference engine: without userId or sessionId the pick is random, even with an address.
        // The chance that 200 random picks all agree is 2^-199.
        let names = Set(
            (0..<200).map { _ in engine.variant("v", context: UnleashContext(remoteAddress: "10.0.0.1")).name })
        #expect(names == ["a", "b"])
        // With a user id it is sticky.
        let sticky = Set(
            (0..<50).map { _ in
                engine.variant("v", context: UnleashContext(userId: "7", remoteAddress: "10.0.0.1")).name
            })
        #expect(sticky.count == 1)
    }
}
