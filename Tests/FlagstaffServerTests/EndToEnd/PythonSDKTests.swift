import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

/// SDKs no one here wrote, against the built `flagstaff serve` on the demo registry: the Python `UnleashClient`
/// 6.9.1 (server-side, local evaluation over `/api/client/features`) and `openfeature-sdk` 0.10.0 with
/// `openfeature-provider-ofrep` 0.3.0. Skipped, saying why, when python3 or the packages are missing.
@Suite(.enabled(if: PythonSDKs.unavailableReason == nil, PythonSDKs.skipComment))
struct PythonSDKTests {
    @Test("the Python Unleash and OpenFeature SDKs answer what `flagstaff get` says, and see a `flagstaff set`")
    func sdksMatchGetAndFollowSet() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-py-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var environment = ProcessInfo.processInfo.environment
        environment["FLAGSTAFF_STORE"] = directory.appendingPathComponent("demo.json").path
        environment["FLAGSTAFF_DEMO"] = "1"  // the demo registry on this store (no app announced one)
        environment["HOME"] = directory.path
        environment.removeValue(forKey: "FLAGSTAFF_MANIFEST")
        let serve = try await ServeProcess(environment: environment)
        var stopped = false
        defer { if !stopped { _ = serve.terminate() } }

        // Something overridden from the start, so that the SDKs see overrides as well as defaults.
        #expect(try serve.flagstaff(["set", "maxItems", "42"]).status == 0)

        // Every member's type and value, as `flagstaff get --json` reports them.
        let list = try serve.flagstaff(["list", "--json"])
        let members = try #require(
            (try JSONSerialization.jsonObject(with: Data(list.standardOutput.utf8)) as? [String: Any])?["flags"]
                as? [[String: Any]])
        var types: [String: String] = [:]
        var expected: [String: OverrideValue] = [:]
        for member in members {
            let key = try #require(member["key"] as? String)
            let get = try serve.flagstaff(["get", key, "--json"])
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(get.standardOutput.utf8)) as? [String: Any])
            types[key] = try #require(report["type"] as? String)
            expected[key] = OverrideValue(jsonObject: report["value"] ?? NSNull())
        }
        #expect(types.count >= 20)

        let typesFile = directory.appendingPathComponent("types.json")
        try JSONSerialization.data(withJSONObject: types).write(to: typesFile)
        let script = directory.appendingPathComponent("sdks.py")
        try Data(PythonSDKs.script.utf8).write(to: script)
        let executable = try BuildProducts.executable(named: "flagstaff")
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", script.path, serve.baseURL, typesFile.path, directory.appendingPathComponent("cache").path,
                executable.path,
            ], environment: environment, timeout: .seconds(120))
        try #require(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n")
        try #require(lines.count == 2, "\(result)")
        let answers = try #require(
            try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: [String: Any]])
        for (key, value) in expected.sorted(by: { $0.key < $1.key }) {
            let answer = try #require(answers[key], "no answer for \(key)")
            let unleash = OverrideValue(jsonObject: answer["unleash"] ?? NSNull())
            let ofrep = OverrideValue(jsonObject: answer["ofrep"] ?? NSNull())
            let canonical = Self.canonical(value, type: types[key])
            #expect(Self.canonical(unleash, type: types[key]) == canonical, "Unleash \(key): \(unleash) vs \(value)")
            #expect(Self.canonical(ofrep, type: types[key]) == canonical, "OFREP \(key): \(ofrep) vs \(value)")
            #expect(answer["ofrepError"] is NSNull, "OFREP \(key): \(answer["ofrepError"] ?? "")")
        }

        // After `flagstaff set`: UnleashClient's time to see the change, within its refresh interval (1 s) plus
        // scheduling slack on a loaded machine. OFREP evaluates on every call: the first evaluation after the set
        // must see it (counted, not timed).
        let after = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Double])
        let unleashSeconds = try #require(after["unleash"])
        let ofrepRounds = try #require(after["ofrepRounds"])
        #expect(unleashSeconds >= 0 && unleashSeconds <= 1 + 2, "UnleashClient took \(unleashSeconds) s")
        #expect(ofrepRounds == 1, "OFREP saw the change at evaluation \(ofrepRounds) after the set")

        // The Python UnleashClient registered and posted metrics: the server logged it once.
        #expect(serve.standardError.contains("client python-sdk-test"))
        stopped = true
        #expect(serve.terminate() == 0, "SIGTERM ends the server gracefully")
    }

    /// Booleans as JSON booleans (the CLI says `true`, the SDKs may say `true` or `"on"`), doubles as doubles.
    static func canonical(_ value: OverrideValue, type: String?) -> String {
        if value == .on { return "true" }
        if value == .off { return "false" }
        if type == "double", let number = value.jsonObject as? NSNumber { return "\(number.doubleValue)" }
        return value.json
    }
}

/// The Python side of ``PythonSDKTests``.
enum PythonSDKs {
    /// `nil` when python3 can import the three packages, else why not.
    static let unavailableReason = PythonPackages.unavailableReason(
        importing: "UnleashClient, openfeature, openfeature.contrib.provider.ofrep",
        install: "UnleashClient==6.9.1 openfeature-sdk==0.10.0 openfeature-provider-ofrep==0.3.0")

    static var skipComment: Comment { Comment(rawValue: unavailableReason ?? "") }

    /// Prints one JSON line with both SDKs' answer for every key, sets two members with the flagstaff binary,
    /// then prints one JSON line with the seconds UnleashClient took to see both changes and the number of the OFREP
    /// evaluation that first saw them.
    static let script = #"""
        import json, subprocess, sys, time, logging
        logging.disable(logging.CRITICAL)
        from UnleashClient import UnleashClient
        from openfeature import api
        from openfeature.contrib.provider.ofrep import OFREPProvider

        base, types_path, cache_dir, flagstaff = sys.argv[1:5]
        types = json.load(open(types_path))
        unleash = UnleashClient(url=base + "/api", app_name="python-sdk-test", refresh_interval=1,
                                metrics_interval=1, cache_directory=cache_dir)
        unleash.initialize_client()
        api.set_provider(OFREPProvider(base))
        client = api.get_client()

        def from_unleash(key, kind):
            if kind == "boolean":
                return unleash.is_enabled(key)
            variant = unleash.get_variant(key)
            if not variant.get("enabled"):
                return None
            text = variant["payload"]["value"]
            if kind == "integer":
                return int(text)
            if kind == "double":
                return float(text)
            if kind == "json":
                return json.loads(text)
            return text

        def from_ofrep(key, kind):
            if kind == "boolean":
                details = client.get_boolean_details(key, False)
            elif kind == "integer":
                details = client.get_integer_details(key, 0)
            elif kind == "double":
                details = client.get_float_details(key, 0.0)
            elif kind == "json":
                details = client.get_object_details(key, {})
            else:
                details = client.get_string_details(key, "")
            error = details.error_code.value if details.error_code else None
            return details.value, error

        answers = {}
        for key, kind in types.items():
            value, error = from_ofrep(key, kind)
            answers[key] = {"unleash": from_unleash(key, kind), "ofrep": value, "ofrepError": error}
        print(json.dumps(answers), flush=True)

        subprocess.run([flagstaff, "set", "blueText", "on"], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([flagstaff, "set", "cardColor", "#000000"], check=True, stdout=subprocess.DEVNULL)
        start = time.monotonic()
        seen = {}
        rounds = 0
        while len(seen) < 2 and time.monotonic() - start < 20:
            rounds += 1
            if "unleash" not in seen and unleash.is_enabled("blueText") and from_unleash("cardColor", "string") == "#000000":
                seen["unleash"] = time.monotonic() - start
            if "ofrepRounds" not in seen and from_ofrep("blueText", "boolean")[0] is True and from_ofrep("cardColor", "string")[0] == "#000000":
                seen["ofrepRounds"] = rounds
            time.sleep(0.02)
        time.sleep(1.5)  # one metrics interval, so the server hears from the client
        unleash.destroy()
        print(json.dumps({k: seen.get(k, -1) for k in ("unleash", "ofrepRounds")}), flush=True)
        """#
}
