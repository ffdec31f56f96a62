import FlagstaffTestSupport
import Foundation
import Testing

/// The built `flagstaff` with standard input or standard error closed (`<&-`, `2>&-`): a clear error and status 1,
/// never a trap.
@Suite struct ClosedStreamTests {
    /// Runs `flagstaff ARGUMENTS` from `/bin/sh` with `redirection` (e.g. `<&-`) applied.
    func run(_ sandbox: CLISandbox, _ arguments: [String], _ redirection: String) async throws -> CLIResult {
        let executable = try BuildProducts.executable(named: "flagstaff")
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #"exec "$0" "$@" "# + redirection, executable.path] + arguments,
            environment: sandbox.environment, standardInput: Data(), timeout: .seconds(60))
        return CLIResult(
            status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
    }

    @Test func aClosedStandardInputIsAClearError() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("m.json", #"{"name":"M","flags":[{"key":"a","default":false}]}"#)
        let cases: [([String], String)] = [
            (["import", "-", "--store", sandbox.storePath], "import: cannot read standard input: it is closed"),
            (
                ["set", "appFeatureConfig", "@-", "--store", sandbox.storePath],
                "set appFeatureConfig: cannot read standard input: it is closed"
            ),
            (
                ["list", "--manifest", "-", "--store", sandbox.storePath],
                "--manifest: cannot read standard input: it is closed"
            ),
        ]
        for (arguments, message) in cases {
            let result = try await run(sandbox, arguments, "<&-")
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(result.standardError.contains("flagstaff: error: " + message), "\(arguments): \(result)")
        }
        #expect(sandbox.storeBytes() == nil, "nothing was written")
        // With input, the same commands read it (the closed case is the only difference).
        let listed = try await sandbox.runProcess(
            ["list", "--manifest", manifest, "--store", sandbox.storePath])
        #expect(listed.status == 0, "\(listed)")
    }

    @Test func aClosedStandardErrorDoesNotStopTheCommandOrReachTheStore() async throws {
        let sandbox = try CLISandbox()
        let unknown = try await run(sandbox, ["get", "no.such.key", "--store", sandbox.storePath], "2>&-")
        #expect(unknown.status == 2, "a usage error, as with standard error open: \(unknown)")
        // The store opened while standard error is closed does not take its place: the note `set` writes about a
        // restart goes nowhere, not into the store.
        let set = try await run(sandbox, ["set", "useTabBarNav", "on", "--store", sandbox.storePath], "2>&-")
        #expect(set.status == 0, "\(set)")
        #expect(try sandbox.storedOverrides() == ["useTabBarNav": "on"])
    }

    // `export > backup.json` on a full disk said nothing and exited 0.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func standardOutputThatCannotBeWrittenIsAnError() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "blueText", "on"]).status == 0)
        for arguments in [["export"], ["list"], ["get", "blueText"]] {
            let result = try await run(sandbox, arguments + ["--store", sandbox.storePath], ">/dev/full")
            #expect(result.status == 1, "\(arguments): \(result)")
            #expect(
                result.standardError.contains(
                    "flagstaff: error: cannot write standard output: No space left on device"),
                "\(arguments): \(result)")
        }
        let written = try await run(sandbox, ["export", "--store", sandbox.storePath], ">/dev/null")
        #expect(written.status == 0 && written.standardError.isEmpty, "\(written)")
    }
}
