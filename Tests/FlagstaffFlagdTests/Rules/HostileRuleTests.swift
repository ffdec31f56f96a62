import Flagstaff
import FlagstaffFlagd
import Foundation
import Testing

/// Definitions written to hurt: deep nesting, rules that grow, cycles, huge rules. Each fails with a clear error,
/// quickly, and the other flags still work.
struct HostileRuleTests {
    static func definitions(targeting: String, evaluators: String = "{}") throws -> FlagdDefinitions {
        let text = """
            {"$evaluators": \(evaluators), "flags": {
              "fine": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a"},
              "hostile": {"state": "ENABLED", "variants": {"a": 1}, "defaultVariant": "a", "targeting": \(targeting)}}}
            """
        return try FlagdDefinitions(json: Data(text.utf8), source: "hostile.json")
    }

    @Test("rules nested deeper than the limit are a PARSE_ERROR naming the path")
    func deepNesting() throws {
        let depth = 200
        let targeting = String(repeating: #"{"!": ["#, count: depth) + "true" + String(repeating: "]}", count: depth)
        let definitions = try Self.definitions(targeting: targeting)
        let result = definitions.evaluate("hostile")
        #expect(result.errorCode == .parseError)
        #expect(result.errorMessage?.contains(#"$.flags.hostile.targeting["!"][0]["!"][0]"#) == true, "\(result)")
        #expect(result.errorMessage?.contains("deeper than") == true)
        #expect(definitions.evaluate("fine").value == .number(1))
    }

    @Test("a reduce that doubles an array stops at the cost limit with GENERAL")
    func growingRule() throws {
        let doubling =
            #"{"reduce": [{"merge": [[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1]]}, {"merge": [{"var": "accumulator"}, {"var": "accumulator"}]}, [1]]}"#
        let definitions = try Self.definitions(targeting: #"{"if": [\#(doubling), "a"]}"#)
        let started = ContinuousClock.now
        let result = definitions.evaluate("hostile")
        #expect(result.errorCode == .general)
        #expect(result.errorMessage?.contains("cost limit") == true, "\(result)")
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("a string that doubles stops at the cost limit")
    func growingText() throws {
        let doubling =
            #"{"reduce": [{"merge": [[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1],[1,1,1,1,1,1,1,1,1,1]]}, {"cat": [{"var": "accumulator"}, {"var": "accumulator"}]}, "ab"]}"#
        let result = try Self.definitions(targeting: #"{"if": [\#(doubling), "a"]}"#).evaluate("hostile")
        #expect(result.errorCode == .general)
        #expect(result.errorMessage?.contains("cost limit") == true, "\(result)")
    }

    @Test("shared rules that refer to each other in a cycle are a PARSE_ERROR naming the cycle")
    func cycle() throws {
        let definitions = try Self.definitions(
            targeting: #"{"if": [{"$ref": "a"}, "a"]}"#,
            evaluators: #"{"a": {"!": {"$ref": "b"}}, "b": {"!": {"$ref": "a"}}}"#)
        let result = definitions.evaluate("hostile")
        #expect(result.errorCode == .parseError)
        #expect(result.errorMessage?.contains(#""a" → "b" → "a""#) == true, "\(result)")
    }

    @Test("shared rules used twice at every level are compiled once; evaluating them stops at the cost limit")
    func exponentialReferences() throws {
        var evaluators: [String] = [#""r0": {"==": [{"var": "x"}, 1]}"#]
        for level in 1...40 {
            evaluators.append(#""r\#(level)": {"or": [{"$ref": "r\#(level - 1)"}, {"$ref": "r\#(level - 1)"}]}"#)
        }
        let definitions = try Self.definitions(
            targeting: #"{"if": [{"$ref": "r40"}, "a"]}"#, evaluators: "{" + evaluators.joined(separator: ",") + "}")
        let result = definitions.evaluate("hostile", context: ["x": .number(2)])
        #expect(result.errorCode == .parseError || result.errorCode == .general, "\(result)")
        #expect(result.errorMessage?.contains("nodes") == true || result.errorMessage?.contains("cost limit") == true)
    }

    @Test("a rule with more nodes than the limit (a shared rule counting once per use) is a PARSE_ERROR")
    func hugeRule() throws {
        let elements = Array(repeating: "1", count: 20_000).joined(separator: ",")
        let uses = Array(repeating: #"{"$ref": "big"}"#, count: 60).joined(separator: ",")
        let result = try Self.definitions(
            targeting: #"{"or": [\#(uses)]}"#, evaluators: #"{"big": {"in": [1, [\#(elements)]]}}"#
        ).evaluate("hostile")
        #expect(result.errorCode == .parseError)
        #expect(result.errorMessage?.contains("more than 1000000 nodes") == true, "\(result)")
    }
}
