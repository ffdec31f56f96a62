import Flagstaff
import FlagstaffFlagd
import Foundation
import Testing

/// Operators whose fine points the reference evaluator fixes (each found by the differential test).
struct JSONLogicOperatorTests {
    /// The value of `rule` (a JsonLogic rule) as a string variant: `{"if": [rule, "yes", "no"]}`'s.
    static func truth(_ rule: String, context: [String: JSONSettingValue] = [:]) throws -> String? {
        let text = """
            {"flags": {"f": {"state": "ENABLED", "variants": {"yes": 1, "no": 0}, "defaultVariant": "no",
              "targeting": {"if": [\(rule), "yes", "no"]}}}}
            """
        return try FlagdDefinitions(json: Data(text.utf8)).evaluate("f", context: context).variant
    }

    @Test(
        "each rule holds",
        arguments: [
            // substr's length is truncated before its sign is read: -0.25 is a length of 0.
            #"{"==": [{"substr": ["abc", 0, -0.25]}, ""]}"#,
            #"{"==": [{"substr": ["abcdef", -2]}, "ef"]}"#,
            #"{"==": [{"substr": ["abcdef", 1, -2]}, "bcd"]}"#,
            // Loose equality: null is 0 against a number, text against an array is the array's text.
            #"{"==": [null, 0]}"#, #"{"==": ["1,2", [1, 2]]}"#, #"{"!=": [[1], [1]]}"#,
            // Strict equality and membership compare arrays member by member; true is 1.
            #"{"===": [[1, "a"], [1, "a"]]}"#, #"{"in": [true, [1]]}"#, #"{"in": ["é", "café"]}"#,
            // Numbers from text; text from numbers.
            #"{"==": [{"+": [" 12 ", "1e1"]}, 22]}"#, #"{"!": {"+": ["", 1]}}"#,
            #"{"==": [{"cat": [0.1, 2, null]}, "0.12null"]}"#,
            // The divisor's sign, as in the reference.
            #"{"==": [{"%": [-7, 3]}, 2]}"#,
            // A null third operand is no third operand.
            #"{"<": [1, 2, null]}"#, #"{"<=": [1, 2, 2]}"#,
            // Text against text by Unicode scalar.
            #"{"<": ["Z", "a"]}"#, #"{"<": ["\u00e9", "\ud83d\ude00"]}"#,
            #"{"==": [{"min": [3, "1", 2]}, 1]}"#, #"{"!": {"==": [{"max": []}, {"max": []}]}}"#,
            #"{"all": [[1, 2], {">": [{"var": ""}, 0]}]}"#, #"{"!": {"all": [[], true]}}"#,
            #"{"==": [{"reduce": [[1, 2, 3], {"+": [{"var": "accumulator"}, {"var": "current"}]}, 0]}, 6]}"#,
            #"{"!": {"missing_some": [1, ["a", "b"]]}}"#,
        ])
    func holds(_ rule: String) throws {
        #expect(try Self.truth(rule, context: ["a": .string("x")]) == "yes", "\(rule)")
    }

    @Test("var reads dotted paths, indices, length, the targeting key and $flagd")
    func variables() throws {
        let context: [String: JSONSettingValue] = [
            "user": .object(["tags": .array([.string("a"), .string("b")]), "name": .string("日本")]),
            "targetingKey": .string("k"),
        ]
        for rule in [
            #"{"==": [{"var": "user.tags.1"}, "b"]}"#, #"{"==": [{"var": "user.tags.length"}, 2]}"#,
            #"{"==": [{"var": "user.name.1"}, "本"]}"#, #"{"==": [{"var": ["user.nothing", 5]}, 5]}"#,
            #"{"==": [{"var": "targetingKey"}, "k"]}"#, #"{"==": [{"var": "$flagd.flagKey"}, "f"]}"#,
        ] {
            #expect(try Self.truth(rule, context: context) == "yes", "\(rule)")
        }
    }

    @Test("division and remainder by zero are GENERAL errors")
    func divisionByZero() throws {
        let text = """
            {"flags": {"f": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a",
              "targeting": {"if": [{"/": [1, 0]}, "a"]}}}}
            """
        let result = try FlagdDefinitions(json: Data(text.utf8)).evaluate("f")
        #expect(result.errorCode == .general)
        #expect(result.errorMessage?.contains("divides by zero") == true)
    }
}
