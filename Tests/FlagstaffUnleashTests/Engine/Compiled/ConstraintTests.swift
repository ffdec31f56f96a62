import Foundation
import Testing

@testable import FlagstaffUnleash

/// Constraint behaviour beyond the specification's cases; expectations come from yggdrasil-engine 2.0.0's answers.
@Suite struct ConstraintTests {
    private func enabled(_ constraint: [String: Any], _ context: UnleashContext) throws -> Bool {
        try TestState.engine([TestState.guarded("f", [constraint])]).isEnabled("f", context: context)
    }

    @Test func missingValuesFailThenInvert() throws {
        let empty = UnleashContext()
        #expect(try !enabled(TestState.constraint("x", "NOT_IN", values: ["a"], inverted: true), empty))
        #expect(try enabled(TestState.constraint("x", "IN", values: ["a"], inverted: true), empty))
        #expect(try enabled(TestState.constraint("x", "STR_STARTS_WITH", values: ["a"], inverted: true), empty))
        #expect(try enabled(TestState.constraint("x", "NUM_EQ", value: "1", inverted: true), empty))
        #expect(try enabled(TestState.constraint("x", "IN_CIDR", values: ["10.0.0.0/8"], inverted: true), empty))
        #expect(try enabled(TestState.constraint("x", "REGEX", value: "^a$", inverted: true), empty))
    }

    @Test func inIgnoresCaseInsensitive() throws {
        #expect(
            try !enabled(
                TestState.constraint("userId", "IN", values: ["ABC"], caseInsensitive: true),
                UnleashContext(userId: "abc")))
        #expect(
            try enabled(
                TestState.constraint("x", "STR_CONTAINS", values: ["ÄB"], caseInsensitive: true),
                TestState.properties(["x": "xäbx"])))
    }

    @Test func ordinalConstraintsAreTypedByTheirValue() throws {
        // SEMVER_EQ with a value shaped like a number compares numbers.
        #expect(try enabled(TestState.constraint("v", "SEMVER_EQ", value: "1.0"), TestState.properties(["v": "1"])))
        // NUM_GT with a semantic-version value compares versions.
        #expect(try enabled(TestState.constraint("v", "NUM_GT", value: "1.2.3"), TestState.properties(["v": "1.10.0"])))
        // DATE_AFTER with a numeric value compares numbers.
        #expect(try enabled(TestState.constraint("v", "DATE_AFTER", value: "5"), TestState.properties(["v": "6"])))
        // Semantic versions ignore build metadata.
        #expect(
            try enabled(
                TestState.constraint("v", "SEMVER_EQ", value: "1.0.0"), TestState.properties(["v": "1.0.0+build.5"])))
    }

    @Test func unusableConstraintsTurnTheWholeFeatureOff() throws {
        for constraint in [
            TestState.constraint("x", "BOGUS", value: "1"),
            TestState.constraint("x", "NUM_EQ", value: "abc"),
            TestState.constraint("x", "STR_CONTAINS", values: []),
            TestState.constraint("x\"y", "IN", values: ["a"]),
        ] {
            let engine = try TestState.engine([
                TestState.feature(
                    "f", strategies: [["name": "default", "constraints": [constraint]], ["name": "default"]])
            ])
            #expect(!engine.isEnabled("f", context: UnleashContext(userId: "1")), "\(constraint)")
        }
    }

    @Test func leadingVSemverNeverMatchesEvenInverted() throws {
        #expect(
            try !enabled(
                TestState.constraint("v", "SEMVER_EQ", value: "v1.0.0", inverted: true),
                TestState.properties(["v": "2.0.0"])))
    }

    @Test func invalidRegexIsFalseThenInverted() throws {
        #expect(try !enabled(TestState.constraint("x", "REGEX", value: "(open"), TestState.properties(["x": "a"])))
        #expect(
            try enabled(
                TestState.constraint("x", "REGEX", value: "(open", inverted: true), TestState.properties(["x": "a"])))
        #expect(try enabled(TestState.constraint("x", "REGEX", values: ["^a$"]), TestState.properties(["x": "a"])))
    }

    @Test func numbersParseLikeRust() throws {
        let equalsThree = TestState.constraint("n", "NUM_EQ", value: "3")
        for text in ["3", "+3", "3.", "3.0", "0.3e1"] {
            #expect(try enabled(equalsThree, TestState.properties(["n": text])), "\(text)")
        }
        for text in [" 3", "0x3", "3_0", "three", ""] {
            #expect(try !enabled(equalsThree, TestState.properties(["n": text])), "\(text)")
        }
    }

    @Test func datesCompareAcrossOffsets() throws {
        let after = TestState.constraint("currentTime", "DATE_AFTER", value: "2022-01-22T13:00:00.000+02:00")
        let context = try UnleashContext.decode(json: Data(#"{"currentTime":"2022-01-22T11:00:01Z"}"#.utf8))
        #expect(try enabled(after, context))
        let property = TestState.constraint("signup", "DATE_BEFORE", value: "2022-01-01T00:00:00Z")
        #expect(try enabled(property, TestState.properties(["signup": "2021-12-31 23:59:59+0000"])))
        #expect(try !enabled(property, TestState.properties(["signup": "2021-12-31"])))
        // No currentTime in the context means now.
        #expect(
            try enabled(
                TestState.constraint("currentTime", "DATE_AFTER", value: "2020-01-01T00:00:00Z"), UnleashContext()))
    }

    @Test func inCIDRMatchesFamiliesSeparately() throws {
        let v4 = TestState.constraint("remoteAddress", "IN_CIDR", values: ["10.1.2.3/8", "bad"])
        #expect(try enabled(v4, UnleashContext(remoteAddress: "10.200.0.1")))
        #expect(try !enabled(v4, UnleashContext(remoteAddress: "::ffff:10.200.0.1")))
        #expect(try !enabled(v4, UnleashContext(remoteAddress: "not-an-ip")))
    }

    @Test func regexFollowsRE2() throws {
        let dot = TestState.constraint("x", "REGEX", value: "^a.b$")
        #expect(try enabled(dot, TestState.properties(["x": "a\rb"])))
        #expect(try !enabled(dot, TestState.properties(["x": "a\nb"])))
        #expect(try !enabled(TestState.constraint("x", "REGEX", value: "^a$"), TestState.properties(["x": "a\n"])))
        #expect(
            try !enabled(TestState.constraint("x", "REGEX", value: "^[[:alpha:]]+$"), TestState.properties(["x": "é"])))
        #expect(try !enabled(TestState.constraint("x", "REGEX", value: "^(a)\\1$"), TestState.properties(["x": "aa"])))
    }
}
