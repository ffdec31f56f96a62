import Foundation
import Testing

/// The built `flagstaff` binary, for what only a process shows: every exit status end to end (the status
/// `main` passes to `exit`, with buffered standard output flushed), real standard input, and the console's
/// refusals of bad files (in process it could take over the test's terminal). Everything else runs in
/// process; the environment, terminal and log-level tests live with their commands.
@Suite("flagstaff as a process")
struct ProcessTests {
    @Test func everyExitStatusReachesTheShell() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        let ok = try await sandbox.runProcess(["list", "--json", "--manifest", manifest, "--store", sandbox.storePath])
        #expect(ok.status == 0, "\(ok)")
        #expect(try sandbox.jsonObject(ok)["registry"] as? String == "Shop", "standard output is flushed whole at exit")

        let usage = try await sandbox.runProcess(["get", "blueTxt", "--store", sandbox.storePath])
        #expect(usage.status == 2, "\(usage)")
        #expect(usage.standardError.hasPrefix("flagstaff: error: unknown flag key 'blueTxt'"), "\(usage)")
        let parse = try await sandbox.runProcess(["list", "--bogus"])
        #expect(parse.status == 2, "\(parse)")

        #expect(
            try await sandbox.runProcess([
                "set", "newHome", "off", "--manifest", manifest, "--store", sandbox.storePath,
            ]).status == 0)
        let pending = try await sandbox.runProcess([
            "pending-restart", "--manifest", manifest, "--store", sandbox.storePath,
        ])
        #expect(pending.status == 3, "\(pending)")
        #expect(pending.standardOutput == "newHome  ON → OFF  (New Home)\n")

        try sandbox.write("overrides.json", "not json")
        let runtime = try await sandbox.runProcess(["get", "blueText", "--store", sandbox.storePath])
        #expect(runtime.status == 1, "\(runtime)")
        #expect(runtime.standardError.contains("is corrupt"), "\(runtime)")
        #expect(runtime.standardOutput.isEmpty)
    }

    @Test func importReadsTheProcesssStandardInput() async throws {
        let sandbox = try CLISandbox()
        let document = Data(#"{"version":1,"overrides":{"blueText":"on"}}"#.utf8)
        let result = try await sandbox.runProcess(["import", "-", "--store", sandbox.storePath], stdin: document)
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
    }

    @Test func theConsoleRefusesBadFilesBeforeLookingForATerminal() async throws {
        let sandbox = try CLISandbox()
        let badManifest = try sandbox.write(
            "type.json", #"{"name": "X", "flags": [{"key": "blueText", "default": "yes"}]}"#)
        let directory = sandbox.directory.path
        let cases: [(arguments: [String], store: String?, message: String)] = [
            (["--manifest", badManifest], nil, "$.flags[0].default: expected a boolean"),
            (
                [], #"{"version":1,"overrides":{"blueText":"on","blueText":"off"}}"#,
                #"$.overrides["blueText"]: the name "blueText" appears more than once"#
            ),
            (["--store", directory], nil, "it is a directory"),
        ]
        for (arguments, store, message) in cases {
            if let store { try sandbox.write("overrides.json", store) }
            let storeArguments = arguments.contains("--store") ? [] : ["--store", sandbox.storePath]
            let before = sandbox.storeBytes()
            let result = try await sandbox.runProcess(["console"] + arguments + storeArguments)
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.standardError.contains(message), "\(arguments): \(result)")
            #expect(result.standardOutput.isEmpty)
            #expect(sandbox.storeBytes() == before)
        }
    }
}
