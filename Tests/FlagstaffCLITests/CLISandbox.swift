import Foundation
import FlagstaffTestSupport
import Testing

/// A private directory, environment and store for running the built `flagstaff` in one test.
///
/// `HOME` and `XDG_CONFIG_HOME` point into the directory, so the default store location is private too;
/// `FLAGSTAFF_*` and `NO_COLOR` from the test runner's environment are removed.
final class CLISandbox {
    let directory: URL
    let executable: URL
    var environment: [String: String]

    /// The explicit store file most tests pass with `--store`.
    var storeURL: URL { directory.appendingPathComponent("overrides.json") }
    var storePath: String { storeURL.path }

    init() throws {
        executable = try BuildProducts.executable(named: "flagstaff")
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FLAGSTAFF_") }
        env.removeValue(forKey: "NO_COLOR")
        env["HOME"] = directory.path
        env["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        env["LANG"] = "C.UTF-8"
        environment = env
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `flagstaff` with the arguments (no `--store` added).
    func run(_ arguments: [String], stdin: Data? = nil, environment extra: [String: String] = [:]) async throws -> CommandRunner.Result {
        try await CommandRunner.run(executable, arguments, environment: environment.merging(extra) { _, new in new },
                              standardInput: stdin, timeout: .seconds(60))
    }

    /// Runs `flagstaff <arguments> --store <storePath>`.
    func runWithStore(_ arguments: [String], stdin: Data? = nil) async throws -> CommandRunner.Result {
        try await run(arguments + ["--store", storePath], stdin: stdin)
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

    /// Parses standard output as a JSON object.
    func jsonObject(_ result: CommandRunner.Result) throws -> [String: Any] {
        let data = Data(result.standardOutput.utf8)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object: \(result)")
    }
}
