import Flagstaff
import FlagstaffFlagd
import Foundation
import Testing

/// Loading definitions: layers of documents, and malformed ones named by source and path.
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
