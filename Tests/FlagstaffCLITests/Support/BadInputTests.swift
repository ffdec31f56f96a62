import Foundation
import Testing

/// Bad manifests, corrupt and unreadable stores, for every subcommand that reads them: a message naming the
/// file, exit status 1, and the store's bytes unchanged. In process, except `console` (it would take over
/// the test's terminal if the check failed), which `EndToEndTests` runs as a process.
@Suite("bad input")
struct BadInputTests {
    /// Every subcommand that opens the store; `IMPORT` stands for a valid import file.
    static let storeCommands: [[String]] = [
        ["list"], ["list", "--json"], ["get", "blueText"], ["get", "blueText", "--explain"], ["set", "blueText", "on"],
        ["reset", "blueText"], ["reset", "--all"], ["export"], ["export", "--format", "text"], ["import", "IMPORT"],
        ["pending-restart"], ["fetch"],
    ]

    static let badManifests: [(name: String, text: String?, message: String)] = [
        ("missing.json", nil, "cannot read the file"),
        ("syntax.json", #"{"name": "X", "flags": ["#, "not valid JSON"),
        (
            "type.json", #"{"name": "X", "flags": [{"key": "blueText", "default": "yes"}]}"#,
            "$.flags[0].default: expected a boolean"
        ),
        (
            "duplicate.json",
            #"{"name": "X", "flags": [{"key": "blueText"}], "groups": [{"key": "g", "flags": [{"key": "blueText"}]}]}"#,
            "duplicate key 'blueText'"
        ),
        ("unknown.json", #"{"name": "X", "flagz": []}"#, "$.flagz: unknown field"),
        ("noname.json", #"{"flags": []}"#, #"$.name: missing required field "name""#),
    ]

    static let corruptStores: [(text: String, message: String)] = [
        ("not json at all", "not valid JSON"),
        (#"{"version":2,"overrides":{}}"#, #"unsupported "version""#),
        (
            #"{"version":1,"overrides":{"blueText":"on","blueText":"off"}}"#,
            #"$.overrides["blueText"]: the name "blueText" appears more than once"#
        ),
        ("", "the file is empty"),
    ]

    private func arguments(_ command: [String], _ sandbox: CLISandbox) throws -> [String] {
        let importFile = try sandbox.write("import.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        return command.map { $0 == "IMPORT" ? importFile : $0 }
    }

    @Test(arguments: storeCommands + [["manifest"]])
    func badManifestIsReportedWithFileAndPath(command: [String]) async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"debugLogging":"off"}}"#)
        let before = sandbox.storeBytes()
        for manifest in Self.badManifests {
            let path =
                manifest.text.map { try? sandbox.write(manifest.name, $0) }
                ?? sandbox.directory.appendingPathComponent(manifest.name).path
            let result = try await sandbox.runWithStore(
                try arguments(command, sandbox) + ["--manifest", try #require(path)])
            #expect(result.status == 1, "\(manifest.name): \(result)")
            #expect(result.standardError.contains("flagstaff: error: "), "\(manifest.name): \(result)")
            #expect(result.standardError.contains(try #require(path)), "\(manifest.name): \(result)")
            #expect(result.standardError.contains(manifest.message), "\(manifest.name): \(result)")
            #expect(result.standardOutput.isEmpty, "\(manifest.name): \(result)")
            #expect(sandbox.storeBytes() == before, "\(manifest.name) changed the store")
        }
    }

    @Test(arguments: storeCommands)
    func corruptStoreIsReportedAndKept(command: [String]) async throws {
        let sandbox = try CLISandbox()
        for store in Self.corruptStores {
            try sandbox.write("overrides.json", store.text)
            let before = sandbox.storeBytes()
            let result = try await sandbox.runWithStore(try arguments(command, sandbox))
            #expect(result.status == 1, "\(store.text): \(result)")
            #expect(result.standardError.contains("the override store \(sandbox.storePath) is corrupt"), "\(result)")
            #expect(result.standardError.contains(store.message), "\(store.text): \(result)")
            #expect(result.standardOutput.isEmpty)
            #expect(sandbox.storeBytes() == before, "the corrupt store was changed by \(command)")
        }
    }

    @Test(arguments: storeCommands)
    func unreadableStoreIsReported(command: [String]) async throws {
        let sandbox = try CLISandbox()
        // A path through a regular file (ENOTDIR) and a symlink loop (ELOOP) cannot be opened, even by root.
        let notADirectory = try sandbox.write("plain-file", "x")
        let loop = sandbox.directory.appendingPathComponent("loop.json").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        for store in [notADirectory + "/overrides.json", loop] {
            let result = try await sandbox.run(try arguments(command, sandbox) + ["--store", store])
            #expect(result.status == 1, "\(store): \(result)")
            #expect(result.standardError.contains("cannot read the override store \(store)"), "\(result)")
            #expect(result.standardOutput.isEmpty)
        }
        #expect(try String(contentsOfFile: notADirectory, encoding: .utf8) == "x")
    }

    @Test(arguments: storeCommands)
    func storeThatIsADirectoryIsRefused(command: [String]) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(try arguments(command, sandbox) + ["--store", sandbox.directory.path])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("--store"))
        #expect(result.standardError.contains("it is a directory"))
    }

    @Test(arguments: [
        ["get", "blueTxt"], ["get", "blueTxt", "--json"], ["set", "blueTxt", "on"], ["reset", "blueTxt"],
        ["reset", "blueText", "blueTxt"],
    ])
    func unknownKeyIsAUsageErrorWithSuggestions(command: [String]) async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let before = sandbox.storeBytes()
        let result = try await sandbox.runWithStore(command)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("unknown flag key 'blueTxt' (KEY)"), "\(result)")
        #expect(result.standardError.contains("did you mean 'blueText'?"), "\(result)")
        #expect(result.standardError.contains("flagstaff list"))
        #expect(result.standardOutput.isEmpty)
        #expect(sandbox.storeBytes() == before)
    }

    @Test func unknownKeySuggestsBySearch() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["get", "avatar"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("'moments.isRoundedAvatar'"))
    }

    @Test(arguments: ["maybe", "", "onn", "2"])
    func badValueIsAUsageError(value: String) async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let before = sandbox.storeBytes()
        let result = try await sandbox.runWithStore(["set", "blueText", value])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.standardError.hasPrefix(
                "flagstaff: error: invalid value '\(value)' for 'blueText' (VALUE): must be on or off\n"),
            "\(result)")
        #expect(result.standardError.contains("expected on or off, or 'default' to remove the override"))
        #expect(sandbox.storeBytes() == before)
    }

    @Test func badExportFormatIsAUsageError() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["export", "--format", "yaml"])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("'yaml' is invalid for '--format"))
    }

    @Test(arguments: [["frobnicate"], ["list", "--bogus"], ["get"], ["set", "blueText"], ["list", "--manifest"]])
    func malformedCommandLinesAreUsageErrors(command: [String]) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(command)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("Usage:") || result.standardError.contains("Error:"), "\(result)")
        #expect(sandbox.storeBytes() == nil)
    }
}
