import Foundation
import Testing

/// `flagstaff unleash eval` in process, against a small state written by the test.
@Suite("flagstaff unleash eval")
struct UnleashEvalCommandTests {

    static let state = """
        {"version": 2, "segments": [],
         "features": [
           {"name": "alpha", "enabled": true, "strategies": [{"name": "default"}]},
           {"name": "beta", "enabled": false, "strategies": [{"name": "default"}]},
           {"name": "gamma", "enabled": true,
            "strategies": [{"name": "userWithId", "parameters": {"userIds": "42, 7"}}],
            "variants": [{"name": "blue", "weight": 1, "payload": {"type": "string", "value": "sky \\"blue\\""}}]}
         ]}
        """

    /// A sandbox holding the state file as `state.json`.
    final class Scratch {
        let sandbox: CLISandbox
        init() throws {
            sandbox = try CLISandbox()
            try sandbox.write("state.json", UnleashEvalCommandTests.state)
        }
        @discardableResult
        func write(_ name: String, _ text: String) throws -> String { try sandbox.write(name, text) }
        func path(_ name: String) -> String { sandbox.directory.appendingPathComponent(name).path }
        /// Runs `flagstaff unleash eval <arguments>` in process.
        func run(_ arguments: [String]) async throws -> CLIResult {
            try await sandbox.run(["unleash", "eval"] + arguments)
        }
    }

    @Test("text output lists every flag of the state in state order for one context")
    func textForOneContext() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(["--state", scratch.path("state.json"), "--context", #"{"userId":"42"}"#])
        #expect(result.status == 0, "\(result.standardError)")
        let rows = result.standardOutput.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(
            rows == [
                ["alpha", "on", "disabled"], ["beta", "off", "disabled"],
                ["gamma", "on", "blue", "[string:", "sky", "\"blue\"]"],
            ])
    }

    @Test("without a context the empty context is used")
    func emptyContextByDefault() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(["--state", scratch.path("state.json"), "gamma"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "gamma  off  disabled\n")
    }

    @Test("--json prints one object per (context, flag) pair: contexts in input order, flags in the order given")
    func jsonLines() async throws {
        let scratch = try Scratch()
        let contexts = try scratch.write(
            "contexts.jsonl", "{\"userId\":\"7\"}\n\n{\"userId\":\"8\",\"properties\":{\"a\":\"b\"}}\n")
        let result = try await scratch.run([
            "--state", scratch.path("state.json"), "--contexts", contexts, "--json", "gamma", "alpha",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        try #require(lines.count == 4)
        for line in lines { #expect(line.hasPrefix("{\"context\":{\"userId\":\"")) }
        let objects = try lines.map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["flag"] as? String } == ["gamma", "alpha", "gamma", "alpha"])
        #expect(objects.map { ($0["context"] as? [String: Any])?["userId"] as? String } == ["7", "7", "8", "8"])
        #expect(objects.map { $0["enabled"] as? Bool } == [true, true, false, true])
        let firstVariant = try #require(objects[0]["variant"] as? [String: Any])
        #expect(firstVariant["name"] as? String == "blue")
        #expect(firstVariant["enabled"] as? Bool == true)
        #expect(firstVariant["feature_enabled"] as? Bool == true)
        #expect(firstVariant["payload"] as? [String: String] == ["type": "string", "value": "sky \"blue\""])
        let thirdVariant = try #require(objects[2]["variant"] as? [String: Any])
        #expect(thirdVariant["name"] as? String == "disabled")
        #expect(thirdVariant["feature_enabled"] as? Bool == false)
        #expect(thirdVariant["payload"] == nil)
    }

    @Test("text output from a contexts file puts a header before each context")
    func textForManyContexts() async throws {
        let scratch = try Scratch()
        let contexts = try scratch.write("contexts.jsonl", "{\"userId\":\"42\"}\n{}\n")
        let result = try await scratch.run([
            "--state", scratch.path("state.json"), "--contexts", contexts, "beta", "gamma",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                # context 1: {"userId":"42"}
                  beta   off  disabled
                  gamma  on   blue  [string: sky "blue"]
                # context 2: {}
                  beta   off  disabled
                  gamma  off  disabled

                """)
    }

    @Test("--explain ends each text row with the reason and adds a reason key as the last JSON key")
    func explain() async throws {
        let scratch = try Scratch()
        let text = try await scratch.run([
            "--state", scratch.path("state.json"), "--context", #"{"userId":"5"}"#, "--explain", "alpha", "beta",
            "gamma",
        ])
        #expect(text.status == 0, "\(text.standardError)")
        let rows = text.standardOutput.split(separator: "\n").map(String.init)
        try #require(rows.count == 3)
        #expect(rows[0].hasPrefix("alpha  on   disabled  # on: "))
        #expect(rows[1].hasPrefix("beta   off  disabled  # off: "))
        #expect(rows[2].hasPrefix("gamma  off  disabled  # off: "))
        let json = try await scratch.run(["--state", scratch.path("state.json"), "--json", "--explain", "gamma"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.standardOutput.hasPrefix(#"{"context":{},"flag":"gamma","enabled":false,"variant":{"#))
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let reason = try #require(object["reason"] as? String)
        #expect(reason.hasPrefix("off: "))
        // "reason" is the last key: what follows `,"reason":` is exactly its string and the closing brace.
        let marker = try #require(json.standardOutput.range(of: #","reason":"#, options: .backwards))
        let tail = json.standardOutput[marker.upperBound...]
        #expect(tail.hasSuffix("}\n"))
        let literal = Data(tail.dropLast(2).utf8)
        #expect(try JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed) as? String == reason)
    }

    @Test("a flag the state does not know evaluates as off, with a note on stderr")
    func unknownFlag() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(["--state", scratch.path("state.json"), "nope"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "nope  off  disabled\n")
        #expect(result.standardError.contains("flag \"nope\" is not in"))
    }

    @Test("definitions that can never match are reported as notes naming the state file")
    func warningsAsNotes() async throws {
        let scratch = try Scratch()
        let state = try scratch.write(
            "odd.json",
            """
            {"version":2,"features":[{"name":"odd","enabled":true,"strategies":[{"name":"default",
             "constraints":[{"contextName":"x","operator":"NOT_AN_OPERATOR","values":["a"]}]}]}]}
            """)
        let result = try await scratch.run(["--state", state])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "odd  off  disabled\n")
        #expect(result.standardError.contains("flagstaff: note: \(state): "))
        #expect(result.standardError.contains("NOT_AN_OPERATOR"))
    }

    @Test("a missing state file is a runtime error naming the file")
    func missingState() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run(["--state", scratch.path("absent.json")])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot read the state file \(scratch.path("absent.json"))"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test("a state with bad JSON or a bad field is a runtime error naming the file and the JSON path")
    func badState() async throws {
        let scratch = try Scratch()
        let broken = try scratch.write("broken.json", "{\"features\": [")
        let brokenResult = try await scratch.run(["--state", broken])
        #expect(brokenResult.status == 1)
        #expect(brokenResult.standardError.contains(broken))
        let badField = try scratch.write("bad-field.json", #"{"version":2,"features":[{"name":"a","enabled":"yes"}]}"#)
        let badFieldResult = try await scratch.run(["--state", badField])
        #expect(badFieldResult.status == 1)
        #expect(badFieldResult.standardError.contains("\(badField): invalid Unleash state at features[0].enabled"))
    }

    @Test("a bad line in the contexts file is a runtime error naming the file and line number, with no output")
    func badContextLine() async throws {
        let scratch = try Scratch()
        let contexts = try scratch.write("contexts.jsonl", "{\"userId\":\"1\"}\n\n{\"userId\": \n")
        let result = try await scratch.run(["--state", scratch.path("state.json"), "--contexts", contexts])
        #expect(result.status == 1)
        #expect(result.standardError.contains("\(contexts):3: bad context"))
        #expect(result.standardOutput.isEmpty, "a bad line must fail the run before anything is printed")
        let wrongType = try scratch.write("wrong.jsonl", "{\"currentTime\":\"yesterday\"}\n")
        let wrongTypeResult = try await scratch.run(["--state", scratch.path("state.json"), "--contexts", wrongType])
        #expect(wrongTypeResult.status == 1)
        #expect(wrongTypeResult.standardError.contains("\(wrongType):1: bad context: invalid context at currentTime"))
    }

    @Test("a missing contexts file is a runtime error naming the file")
    func missingContexts() async throws {
        let scratch = try Scratch()
        let result = try await scratch.run([
            "--state", scratch.path("state.json"), "--contexts", scratch.path("none.jsonl"),
        ])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot read the contexts file \(scratch.path("none.jsonl"))"))
    }

    @Test("bad arguments are usage errors (status 2)")
    func usageErrors() async throws {
        let scratch = try Scratch()
        let badJSON = try await scratch.run(["--state", scratch.path("state.json"), "--context", "{userId"])
        #expect(badJSON.status == 2)
        #expect(badJSON.standardError.contains("--context"))
        let both = try await scratch.run([
            "--state", scratch.path("state.json"), "--context", "{}", "--contexts", scratch.path("state.json"),
        ])
        #expect(both.status == 2)
        #expect(both.standardError.contains("either --context or --contexts"))
        let noState = try await scratch.run([])
        #expect(noState.status == 2)
        #expect(noState.standardError.contains("--state"))
    }
}
