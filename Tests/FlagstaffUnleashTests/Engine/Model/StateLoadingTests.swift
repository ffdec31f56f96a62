import Foundation
import Testing

@testable import FlagstaffUnleash

@Suite struct StateLoadingTests {
    private func error(loading json: String) -> UnleashStateError? {
        let engine = UnleashEngine()
        do {
            try engine.takeState(Data(json.utf8))
            return nil
        } catch let error as UnleashStateError {
            return error
        } catch {
            Issue.record("unexpected error type \(type(of: error)): \(error)")
            return nil
        }
    }

    @Test func invalidJSONIsReportedWithItsPosition() throws {
        let failure = try #require(error(loading: "{\"features\": [\n  {\"name\": \"a\", \"enabled\": tru}]}"))
        #expect(failure.path == "")
        #expect(failure.description.contains("not valid JSON at line 2"), "\(failure.description)")
    }

    @Test func missingKeyNamesItsPath() throws {
        let failure = try #require(
            error(loading: #"{"features":[{"name":"a","enabled":true},{"enabled":true,"strategies":[]}]}"#))
        #expect(failure.path == "features[1].name")
        #expect(failure.description.contains("features[1].name"))
    }

    @Test func wrongTypeNamesItsPath() throws {
        let failure = try #require(
            error(
                loading:
                    #"{"features":[{"name":"a","enabled":true,"strategies":[{"name":"default","constraints":[{"contextName":"x","operator":7}]}]}]}"#
            ))
        #expect(failure.path == "features[0].strategies[0].constraints[0].operator")
    }

    @Test func documentWithoutFeaturesOrEventsIsRejected() throws {
        let failure = try #require(error(loading: #"{"version":2}"#))
        #expect(failure.message.contains("\"features\""))
        #expect(failure.message.contains("\"events\""))
        #expect(try #require(error(loading: "[1,2]")).message.contains("object"))
    }

    @Test func failedLoadKeepsThePreviousState() throws {
        let engine = try TestState.engine([TestState.feature("kept")])
        #expect(throws: UnleashStateError.self) { try engine.takeState(Data("{\"features\": 3}".utf8)) }
        #expect(engine.isEnabled("kept", context: UnleashContext()))
        #expect(engine.featureNames == ["kept"])
    }

    @Test func featuresKeepServerOrderAndInformation() throws {
        let engine = try TestState.engine([
            TestState.feature(
                "zeta", extra: ["description": "last letter", "type": "release", "impressionData": true]),
            TestState.feature("alpha", enabled: false, extra: ["project": "web", "stale": true]),
        ])
        #expect(engine.featureNames == ["zeta", "alpha"])
        let zeta = try #require(engine.feature(named: "zeta"))
        #expect(zeta.description == "last letter")
        #expect(zeta.type == "release")
        #expect(zeta.impressionData)
        let alpha = try #require(engine.feature(named: "alpha"))
        #expect(!alpha.enabled)
        #expect(alpha.project == "web")
        #expect(alpha.stale)
        #expect(engine.feature(named: "missing") == nil)
    }

    @Test func numericParametersAreReadAsText() throws {
        let engine = try TestState.engine([
            TestState.feature(
                "numeric", strategies: [["name": "flexibleRollout", "parameters": ["rollout": 100, "groupId": "g"]]])
        ])
        #expect(engine.isEnabled("numeric", context: UnleashContext(userId: "1")))
    }

    @Test func unusableDefinitionsAreWarnedAbout() throws {
        let engine = try TestState.engine([
            TestState.guarded("bad", [TestState.constraint("x", "NOT_AN_OPERATOR", value: "1")]),
            TestState.feature("custom", strategies: [["name": "myCustomStrategy"]]),
        ])
        let warnings = engine.warnings
        #expect(warnings.contains { $0.contains("NOT_AN_OPERATOR") && $0.contains("bad") })
        #expect(warnings.contains { $0.contains("myCustomStrategy") })
    }
}
