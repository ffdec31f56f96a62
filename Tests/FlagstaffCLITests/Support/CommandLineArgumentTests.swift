import Foundation
import Testing

@testable import FlagstaffCLI

/// Options before the subcommand, unknown subcommands, `help`, `--version`, and the one error format
/// (parser errors included, echoed input escaped and cut). In process.
@Suite("command line arguments")
struct CommandLineArgumentTests {
    @Test func storeAndManifestWorkBeforeTheSubcommand() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("m.json", InputPathTests.manifest)
        let set = try await sandbox.run(["--store", sandbox.storePath, "set", "blueText", "on"])
        #expect(set.status == 0, "\(set)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
        let get = try await sandbox.run(["--store=\(sandbox.storePath)", "--manifest", manifest, "get", "piped.flag"])
        #expect(get.status == 0, "\(get)")
        #expect(get.standardOutput == "on\n")
    }

    @Test func leadingOptionsGoAfterTheWholeSubcommandPath() {
        #expect(
            CommandLineArguments.plan(["--store", "s.json", "unleash", "eval", "state.json"])
                == .parse(["unleash", "eval", "state.json", "--store", "s.json"]))
        #expect(
            CommandLineArguments.plan(["--manifest=m.json", "get", "--", "-odd-key"])
                == .parse(["get", "--manifest=m.json", "--", "-odd-key"]))
        // Without a subcommand the console (the default) takes them where they are.
        #expect(
            CommandLineArguments.plan(["--lock-timeout", "2", "--store", "s.json", "set", "blueText", "on"])
                == .parse(["set", "blueText", "on", "--lock-timeout", "2", "--store", "s.json"]))
        #expect(CommandLineArguments.plan(["--store", "s.json"]) == .parse(["--store", "s.json"]))
        #expect(CommandLineArguments.plan(["list", "--json"]) == .parse(["list", "--json"]))
        // Between a group and its subcommand too.
        #expect(
            CommandLineArguments.plan(["bisect", "--store", "s.json", "--lock-timeout=2", "status", "--json"])
                == .parse(["bisect", "status", "--json", "--store", "s.json", "--lock-timeout=2"]))
        #expect(
            CommandLineArguments.plan(["--manifest", "m.json", "profile", "--store", "s.json", "list"])
                == .parse(["profile", "list", "--manifest", "m.json", "--store", "s.json"]))
        // `help` shows help whatever options came first.
        #expect(CommandLineArguments.plan(["--store", "s.json", "help", "get"]) == .parse(["help", "get"]))
    }

    @Test(arguments: [
        ("lst", "did you mean 'list'?"), ("pending", "did you mean 'pending-restart'?"),
        ("imprt", "did you mean 'import'?"), ("pendng", "did you mean 'pending-restart'?"),
        ("zzzzzzzz", "expected one of: console, list, get"),
    ])
    func anUnknownSubcommandSuggestsTheNearest(name: String, suggestion: String) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run([name, "blueText"])
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.hasPrefix("flagstaff: error: unknown subcommand '\(name)'; \(suggestion)"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test(arguments: [
        (
            ["--store", "s.json", "bisect", "frobnicate"],
            "unknown subcommand 'frobnicate' of 'bisect'; expected one of: start"
        ),
        (
            ["bisect", "frobnicate", "--store", "s.json"],
            "unknown subcommand 'frobnicate' of 'bisect'; expected one of: start"
        ),
        (["--store", "s.json", "profile", "sav", "x"], "unknown subcommand 'sav' of 'profile'; did you mean 'save'?"),
        (["unleash", "evl"], "unknown subcommand 'evl' of 'unleash'; did you mean 'eval'?"),
        (
            ["bisect", "--store", "s.json", "frobnicate"],
            "unknown subcommand 'frobnicate' of 'bisect'; expected one of: start"
        ),
        (["profile", "--store=s.json", "sav", "x"], "unknown subcommand 'sav' of 'profile'; did you mean 'save'?"),
    ])
    func anUnknownNestedSubcommandIsNamed(arguments: [String], message: String) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.hasPrefix("flagstaff: error: " + message), "\(result)")
        #expect(!result.standardError.contains("--store"), "\(result)")
    }

    @Test func helpForAnUnknownSubcommandFails() async throws {
        let sandbox = try CLISandbox()
        let bad = try await sandbox.run(["help", "nonsense"])
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.standardError.hasPrefix("flagstaff: error: unknown subcommand 'nonsense'"))
        let nested = try await sandbox.run(["help", "unleash", "evl"])
        #expect(nested.status == 2, "\(nested)")
        #expect(nested.standardError.contains("did you mean 'eval'?"))
        let good = try await sandbox.run(["help", "unleash", "eval"])
        #expect(good.status == 0, "\(good)")
        #expect(good.standardOutput.contains("USAGE: flagstaff unleash eval"))
    }

    @Test func versionPrintsTheVersion() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["--version"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == FlagstaffVersion.current + "\n")
        #expect(FlagstaffCommand.configuration.version == FlagstaffVersion.current)
    }

    @Test(arguments: [
        (["list", "--bogus"], "unknown option '--bogus'"),
        (["get"], "missing expected argument '<key>'"),
        (["set", "blueText"], "missing VALUE for 'blueText': give KEY VALUE"),
        (["list", "--manifest", ""], "--manifest needs a file path"),
    ])
    func parserErrorsUseTheOneErrorFormat(arguments: [String], message: String) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.hasPrefix("flagstaff: error: \(message)"), "\(result)")
        #expect(!result.standardError.contains("Error:"), "\(result)")
    }

    @Test func echoedInputIsEscapedAndCut() async throws {
        let sandbox = try CLISandbox()
        let hostile = try await sandbox.run(["list", "--bo\u{1B}]0;title\u{7}gus"])
        #expect(hostile.status == 2)
        #expect(!hostile.standardError.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(hostile)")
        #expect(hostile.standardError.contains(#"--bo\u{1B}]0;title\u{7}gus"#), "\(hostile)")

        let long = String(repeating: "k", count: 5000)
        for arguments in [["get", long], ["list", "--" + long], [long]] {
            let result = try await sandbox.run(arguments)
            #expect(result.status == 2, "\(result)")
            #expect(result.standardError.hasPrefix("flagstaff: error: "), "\(result)")
            #expect(result.standardError.contains("characters)"), "\(result)")
            #expect(result.standardError.count < 2000, "\(result.standardError.count) characters")
        }
    }

    @Test func editDistance() {
        #expect(CommandLineArguments.editDistance("lst", "list") == 1)
        #expect(CommandLineArguments.editDistance("", "abc") == 3)
        #expect(CommandLineArguments.editDistance("kitten", "sitting") == 3)
    }
}
