import Flagstaff
import FlagstaffFlagd
import Foundation
import Testing

/// Every reason and error code of an evaluation, on the definitions of ``FlagdDefinitionsTests``.
struct FlagdEvaluationTests {
    @Test("no targeting is STATIC; flag metadata over the set's")
    func staticFlag() throws {
        let result = try FlagdDefinitionsTests.load(FlagdDefinitionsTests.document).evaluate(
            "static", type: .boolean, defaultValue: .bool(false))
        #expect(result.value == .bool(true))
        #expect(result.variant == "on")
        #expect(result.reason == .static)
        #expect(result.errorCode == nil)
        #expect(result.metadata == ["team": .string("set"), "scope": .string("flag")])
    }

    @Test("DISABLED is a success with the caller's default and no variant")
    func disabled() throws {
        let result = try FlagdDefinitionsTests.load(FlagdDefinitionsTests.document).evaluate(
            "disabled", type: .boolean, defaultValue: .bool(false))
        #expect(
            result
                == FlagdEvaluation(
                    key: "disabled", value: .bool(false), variant: nil, reason: .disabled,
                    metadata: ["team": .string("set"), "scope": .string("set")]))
    }

    @Test("a match is TARGETING_MATCH; null falls back to the default variant with DEFAULT")
    func targeting() throws {
        let definitions = try FlagdDefinitionsTests.load(FlagdDefinitionsTests.document)
        let admin = definitions.evaluate("targeted", context: ["email": .string("root@example.com")])
        #expect(admin.value == .string("A") && admin.variant == "admin" && admin.reason == .targetingMatch)
        let user = definitions.evaluate("targeted", context: ["email": .string("x@example.com")])
        #expect(user.value == .string("U") && user.variant == "user" && user.reason == .default)
    }

    @Test("without a defaultVariant: DEFAULT with the caller's default and no variant")
    func noDefaultVariant() throws {
        let result = try FlagdDefinitionsTests.load(FlagdDefinitionsTests.document).evaluate(
            "no-default", type: .integer, defaultValue: .number(7))
        #expect(result.value == .number(7) && result.variant == nil && result.reason == .default)
        #expect(result.errorCode == nil)
    }

    @Test("true and false name the variants \"true\" and \"false\"")
    func booleanNames() throws {
        let definitions = try FlagdDefinitionsTests.load(FlagdDefinitionsTests.document)
        #expect(definitions.evaluate("bool-named", context: ["targetingKey": .string("k")]).value == .string("yes"))
        #expect(definitions.evaluate("bool-named").variant == "false")
    }

    @Test("errors: FLAG_NOT_FOUND, TYPE_MISMATCH, GENERAL, PARSE_ERROR, each with the caller's default")
    func errors() throws {
        let definitions = try FlagdDefinitionsTests.load(FlagdDefinitionsTests.document)
        let cases: [(String, FlagdValueType, FlagdErrorCode, String)] = [
            ("missing", .string, .flagNotFound, "\"missing\""),
            ("static", .string, .typeMismatch, "\"on\""),
            ("unknown-variant", .integer, .general, "\"b\""),
            ("bad-default", .integer, .general, "defaultVariant \"b\""),
            ("broken", .integer, .parseError, "$.flags.broken.targeting.if[0].regex: unknown operator \"regex\""),
        ]
        for (key, type, code, fragment) in cases {
            let result = definitions.evaluate(key, type: type, defaultValue: .number(-1))
            #expect(result.reason == .error, "\(key)")
            #expect(result.errorCode == code, "\(key): \(result)")
            #expect(result.value == .number(-1), "\(key)")
            #expect(result.variant == nil, "\(key)")
            #expect(result.errorMessage?.contains(fragment) == true, "\(key): \(result.errorMessage ?? "")")
        }
        #expect(definitions.problems.count == 1)
    }

    @Test("rules see $flagd.flagKey and $flagd.timestamp")
    func flagdProperties() throws {
        let definitions = try FlagdDefinitionsTests.load(FlagdDefinitionsTests.document)
        #expect(definitions.evaluate("keyed").variant == "keyed")
        #expect(definitions.evaluate("clock", timestamp: 999).variant == "past")
        #expect(definitions.evaluate("clock", timestamp: 1001).variant == "future")
        #expect(definitions.evaluate("clock").variant == "future")
    }

    @Test("an integer is a whole number; a float any number; an object an object or array")
    func types() throws {
        let definitions = try FlagdDefinitionsTests.load(
            """
            {"flags": {
              "half": {"state": "ENABLED", "variants": {"v": 0.5}, "defaultVariant": "v"},
              "list": {"state": "ENABLED", "variants": {"v": [1]}, "defaultVariant": "v"}}}
            """)
        #expect(definitions.evaluate("half", type: .integer).errorCode == .typeMismatch)
        #expect(definitions.evaluate("half", type: .float).value == .number(0.5))
        #expect(definitions.evaluate("list", type: .object).value == .array([.number(1)]))
        #expect(definitions.evaluate("list", type: .boolean).errorCode == .typeMismatch)
    }
}
