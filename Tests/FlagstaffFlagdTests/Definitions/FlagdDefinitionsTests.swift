import Flagstaff
import FlagstaffFlagd
import Foundation
import Testing

/// Loading definitions and every reason and error code of an evaluation.
struct FlagdDefinitionsTests {
    static func load(_ text: String, bucketing: FlagdBucketing = .version2) throws -> FlagdDefinitions {
        try FlagdDefinitions(json: Data(text.utf8), source: "test.json", bucketing: bucketing)
    }

    static let document = """
        {"metadata": {"team": "set", "scope": "set"},
         "$evaluators": {"is_admin": {"in": [{"var": "email"}, ["root@example.com"]]}},
         "flags": {
           "static": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on",
                      "metadata": {"scope": "flag"}},
           "disabled": {"state": "DISABLED", "variants": {"on": true}, "defaultVariant": "on"},
           "targeted": {"state": "ENABLED", "variants": {"admin": "A", "user": "U"}, "defaultVariant": "user",
                        "targeting": {"if": [{"$ref": "is_admin"}, "admin", null]}},
           "no-default": {"state": "ENABLED", "variants": {"a": 1}},
           "bool-named": {"state": "ENABLED", "variants": {"true": "yes", "false": "no"}, "defaultVariant": "false",
                          "targeting": {"==": [{"var": "targetingKey"}, "k"]}},
           "unknown-variant": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a",
                               "targeting": {"if": [true, "b"]}},
           "bad-default": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "b"},
           "broken": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a",
                      "targeting": {"if": [{"regex": ["a", "b"]}, "a"]}},
           "clock": {"state": "ENABLED", "variants": {"past": 1, "future": 2}, "defaultVariant": "past",
                     "targeting": {"if": [{">": [{"var": "$flagd.timestamp"}, 1000]}, "future", "past"]}},
           "keyed": {"state": "ENABLED", "variants": {"static": 1, "keyed": 2}, "defaultVariant": "static",
                     "targeting": {"if": [{"==": [{"var": "$flagd.flagKey"}, "keyed"]}, "keyed"]}}
         }}
        """

    @Test("no targeting is STATIC; flag metadata over the set's")
    func staticFlag() throws {
        let result = try Self.load(Self.document).evaluate("static", type: .boolean, defaultValue: .bool(false))
        #expect(result.value == .bool(true))
        #expect(result.variant == "on")
        #expect(result.reason == .static)
        #expect(result.errorCode == nil)
        #expect(result.metadata == ["team": .string("set"), "scope": .string("flag")])
    }

    @Test("DISABLED is a success with the caller's default and no variant")
    func disabled() throws {
        let result = try Self.load(Self.document).evaluate("disabled", type: .boolean, defaultValue: .bool(false))
        #expect(
            result
                == FlagdEvaluation(
                    key: "disabled", value: .bool(false), variant: nil, reason: .disabled,
                    metadata: ["team": .string("set"), "scope": .string("set")]))
    }

    @Test("a match is TARGETING_MATCH; null falls back to the default variant with DEFAULT")
    func targeting() throws {
        let definitions = try Self.load(Self.document)
        let admin = definitions.evaluate("targeted", context: ["email": .string("root@example.com")])
        #expect(admin.value == .string("A") && admin.variant == "admin" && admin.reason == .targetingMatch)
        let user = definitions.evaluate("targeted", context: ["email": .string("x@example.com")])
        #expect(user.value == .string("U") && user.variant == "user" && user.reason == .default)
    }

    @Test("without a defaultVariant: DEFAULT with the caller's default and no variant")
    func noDefaultVariant() throws {
        let result = try Self.load(Self.document).evaluate("no-default", type: .integer, defaultValue: .number(7))
        #expect(result.value == .number(7) && result.variant == nil && result.reason == .default)
        #expect(result.errorCode == nil)
    }

    @Test("true and false name the variants \"true\" and \"false\"")
    func booleanNames() throws {
        let definitions = try Self.load(Self.document)
        #expect(definitions.evaluate("bool-named", context: ["targetingKey": .string("k")]).value == .string("yes"))
        #expect(definitions.evaluate("bool-named").variant == "false")
    }

    @Test("errors: FLAG_NOT_FOUND, TYPE_MISMATCH, GENERAL, PARSE_ERROR, each with the caller's default")
    func errors() throws {
        let definitions = try Self.load(Self.document)
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
        let definitions = try Self.load(Self.document)
        #expect(definitions.evaluate("keyed").variant == "keyed")
        #expect(definitions.evaluate("clock", timestamp: 999).variant == "past")
        #expect(definitions.evaluate("clock", timestamp: 1001).variant == "future")
        #expect(definitions.evaluate("clock").variant == "future")
    }

    @Test("an integer is a whole number; a float any number; an object an object or array")
    func types() throws {
        let definitions = try Self.load(
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

    @Test("a later document's flag replaces an earlier one's; each document keeps its own $evaluators")
    func layers() throws {
        let first =
            #"{"$evaluators": {"r": true}, "flags": {"a": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x"}, "b": {"state": "ENABLED", "variants": {"x": 1}, "defaultVariant": "x", "targeting": {"if": [{"$ref": "r"}, "x"]}}}}"#
        let second = #"{"flags": {"a": {"state": "ENABLED", "variants": {"y": 2}, "defaultVariant": "y"}}}"#
        let definitions = try FlagdDefinitions(documents: [("1.json", Data(first.utf8)), ("2.json", Data(second.utf8))])
        #expect(definitions.keys == ["a", "b"])
        #expect(definitions.evaluate("a").value == .number(2))
        #expect(definitions.evaluate("b").reason == .targetingMatch)
    }

    @Test(
        "malformed definitions name the source and the path",
        arguments: [
            (#"{"flags": {"a": {"state": "ON", "variants": {"x": 1}}}}"#, "test.json: $.flags.a.state: expected"),
            (#"{"flags": {"a": {"state": "ENABLED", "variants": {}}}}"#, "$.flags.a.variants"),
            (#"{"flags": {"a": {"state": "ENABLED", "variants": {"x": 1}, "colour": 1}}}"#, "$.flags.a.colour"),
            (
                #"{"flags": {"a": {"state": "ENABLED", "variants": {"x": 1}, "metadata": {"m": []}}}}"#,
                "$.flags.a.metadata.m"
            ),
            (#"{"flags": []}"#, "$.flags: expected an object"), ("[1]", "$: expected an object"),
            (#"{"flags": {"a": 1, "a": 2}}"#, "$.flags.a"), ("{", "not JSON"),
        ] as [(String, String)])
    func malformed(_ text: String, _ fragment: String) {
        #expect {
            try Self.load(text)
        } throws: { error in
            (error as? FlagdDefinitionsError)?.description.contains(fragment) == true
        }
    }
}

/// Names compare by Unicode scalars, as flagd compares them: `"é"` (one scalar) is not `"e\u{301}"` (two).
struct ExactNameTests {
    static let document = """
        {"flags": {"caf\\u00e9": {"state": "ENABLED", "variants": {"\\u00e9": 1, "x": 2}, "defaultVariant": "x",
          "targeting": {"if": [{"var": "caf\\u00e9"}, "e\\u0301", "\\u00e9"]}}}}
        """

    @Test("a variant, a flag key and a context member match only when spelled with the same scalars")
    func exactNames() throws {
        let definitions = try FlagdDefinitions(json: Data(Self.document.utf8))
        let composed = "caf\u{e9}"
        let decomposed = "cafe\u{301}"
        #expect(definitions.evaluate(decomposed).errorCode == .flagNotFound)
        // The context member spelled the other way is not the rule's `var`: the rule picks "é", which exists.
        let other = definitions.evaluate(composed, context: [decomposed: .bool(true)])
        #expect(other.variant == "\u{e9}", "\(other)")
        // Spelled the same way, the rule picks "e\u{301}", which is not a variant.
        let same = definitions.evaluate(composed, context: [composed: .bool(true)])
        #expect(same.errorCode == .general, "\(same)")
    }
}
