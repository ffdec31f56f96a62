import FlagstaffTestSupport
import Foundation
import Testing

/// A private directory, environment and store for running `flagstaff` in one test.
///
/// ``run(_:stdin:environment:)`` runs a command in process (``InProcessCLI``); ``runProcess(_:stdin:environment:)``
/// runs the built binary, for what only a process shows (exit statuses end to end, terminals, environment
/// variables, the log handler). `HOME` and `XDG_CONFIG_HOME` point into the directory, so the default store
/// location of a process is private too; `FLAGSTAFF_*` and `NO_COLOR` from the test runner's environment are
/// removed. In process, `FLAGSTAFF_STORE` names ``storePath`` unless the test sets it: the default location
/// comes from the test process's own `HOME`, which a test must never write.
final class CLISandbox {
    let directory: URL
    var environment: [String: String]

    /// The explicit store file most tests pass with `--store`.
    var storeURL: URL { directory.appendingPathComponent("overrides.json") }
    var storePath: String { storeURL.path }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FLAGSTAFF_") }
        env.removeValue(forKey: "NO_COLOR")
        env["HOME"] = directory.path
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        env["LANG"] = "C.UTF-8"
        // The demo registry on the sandbox's store (no app announced one there): `--demo` for every command.
        env["FLAGSTAFF_DEMO"] = "1"
        environment = env
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `flagstaff` in process with the arguments (no `--store` added).
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) async throws
        -> CLIResult
    {
        var environment = environment.merging(extra) { _, new in new }
        if environment["FLAGSTAFF_STORE"] == nil { environment["FLAGSTAFF_STORE"] = storePath }
        return try await InProcessCLI.run(arguments, environment: environment, standardInput: stdin)
    }

    /// Runs `flagstaff <arguments> --store <storePath>` in process.
    func runWithStore(_ arguments: [String], stdin: Data? = nil) async throws -> CLIResult {
        try await run(arguments + ["--store", storePath], stdin: stdin)
    }

    /// Runs the built `flagstaff` binary with the arguments (no `--store` added).
    func runProcess(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) async throws
        -> CLIResult
    {
        let executable = try BuildProducts.executable(named: "flagstaff")
        let result = try await CommandRunner.run(
            executable, arguments, environment: environment.merging(extra) { _, new in new },
            standardInput: stdin, timeout: .seconds(60))
        return CLIResult(
            status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
    }

    /// Writes a file in the sandbox and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The store's bytes, or `nil` when it does not exist.
    func storeBytes() -> Data? {
        FileManager.default.contents(atPath: storePath)
    }

    /// The store's overrides parsed as JSON (`[:]` when the file does not exist).
    func storedOverrides() throws -> [String: String] {
        guard let data = storeBytes() else { return [:] }
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        return try #require(object["overrides"] as? [String: String])
    }

    /// The store's entries as compact JSON texts, object members sorted (`"\"on\""`, `"50"`, `"{\"a\":1}"`);
    /// `[:]` when the file does not exist.
    func storedJSON() throws -> [String: String] {
        guard let data = storeBytes() else { return [:] }
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let overrides = try #require(object["overrides"] as? [String: Any])
        return try overrides.mapValues { value in
            let data = try JSONSerialization.data(
                withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys, .withoutEscapingSlashes])
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Parses standard output as a JSON object.
    func jsonObject(_ result: CLIResult) throws -> [String: Any] {
        let data = Data(result.standardOutput.utf8)
        return try #require(
            try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object: \(result)")
    }
}
