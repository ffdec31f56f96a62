import FlagstaffTestSupport
import Foundation
import Testing

@testable import Flagstaff
@testable import FlagstaffCLI

/// The CLI sees `FLAGSTAFF_OVERRIDES` as an app started with it would, so scripts can check what the app sees.
@Suite("launch overrides on the command line")
struct LaunchOverrideCommandTests {
    @Test func getShowsLaunchValuesWithTheirSourceAndTheStoreIsUntouched() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.run(["set", "maxItems", "9"]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath))
        let environment = ["FLAGSTAFF_OVERRIDES": "blueText=on,maxItems=50"]
        let value = try await sandbox.run(["get", "maxItems"], environment: environment)
        #expect(value.status == 0 && value.standardOutput == "50\n", "\(value)")
        let explained = try await sandbox.run(["get", "maxItems", "--explain"], environment: environment)
        #expect(explained.standardOutput.contains("launch"), "\(explained)")
        #expect(explained.standardOutput.contains("FLAGSTAFF_OVERRIDES"), "\(explained)")
        let flag = try await sandbox.run(["get", "blueText"], environment: environment)
        #expect(flag.standardOutput.hasPrefix("on"), "\(flag)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.storePath)) == before)
        let plain = try await sandbox.run(["get", "maxItems"])
        #expect(plain.standardOutput == "9\n")
    }

    /// The built binary, as a script would run it: invalid entries are reported on standard error and ignored.
    @Test func theBinaryReportsInvalidLaunchValuesAndIgnoresThem() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(
            ["get", "maxItems"], environment: ["FLAGSTAFF_OVERRIDES": "maxItems=500,theme=dark"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "20\n")
        #expect(
            result.standardError.contains(
                #"flagstaff: launch overrides: "maxItems": must be 1…100 (from FLAGSTAFF_OVERRIDES); ignored"#),
            "\(result)")
        let theme = try await sandbox.runProcess(["get", "theme"], environment: ["FLAGSTAFF_OVERRIDES": "theme=dark"])
        #expect(theme.standardOutput == "dark\n", "\(theme)")
    }

    /// Foundation turns bytes that are not UTF-8 into U+FFFD; the variable is refused whole instead, and said so.
    @Test func aLaunchVariableThatIsNotUTF8IsRefusedAndSaid() async throws {
        let sandbox = try CLISandbox()
        let executable = try BuildProducts.executable(named: "flagstaff")
        // A shell sets the bytes: a Swift string cannot hold them.
        let result = try await CommandRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", #"FLAGSTAFF_OVERRIDES="$(printf 'blueText=on,welcomeMessage=caf\351')" exec "$0" get blueText"#,
                executable.path,
            ],
            environment: sandbox.environment, timeout: .seconds(60))
        #expect(result.status == 0 && result.standardOutput.hasPrefix("off"), "nothing applied: \(result)")
        #expect(
            result.standardError.contains(
                "FLAGSTAFF_OVERRIDES: not UTF-8 (byte 0xE9 at offset 30); none of its values were applied"),
            "\(result)")
        #expect(LaunchOverrides.utf8Problem(Array("blueText=on,welcome=café".utf8)) == nil)
        #expect(LaunchOverrides.utf8Problem([0x61, 0xC3]) != nil, "a sequence cut short")
    }

    /// A typo in `FLAGSTAFF_OVERRIDES` is said once on standard error, with the key that was meant (issue 28).
    @Test func theBinaryNamesTheNearestKeyOfAnUnknownLaunchKeyOnce() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(
            ["get", "blueText"], environment: ["FLAGSTAFF_OVERRIDES": "blueTxt=on"])
        #expect(result.status == 0 && result.standardOutput.hasPrefix("off"), "\(result)")
        let line =
            #"flagstaff: launch overrides: "blueTxt": no flag or setting of Moments demo has this key; did you mean "blueText"? (from FLAGSTAFF_OVERRIDES); ignored"#
        #expect(result.standardError.components(separatedBy: line).count == 2, "exactly once: \(result)")
    }
}
