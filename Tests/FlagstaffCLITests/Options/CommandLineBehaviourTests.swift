import Foundation
import Testing

/// Completion, help, the console's refusal without a terminal, and sanitising of hostile text.
///
/// Completion runs as a process: ArgumentParser keeps the requesting shell in a process-wide variable, so
/// completions in process would format for whichever shell another test asked for last. The console's
/// refusal runs as a process because it depends on the real descriptors.
@Suite("command line behaviour")
struct CommandLineBehaviourTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(shell: String) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(["--generate-completion-script", shell])
        #expect(result.status == 0, "\(result)")
        for subcommand in ["list", "get", "set", "reset", "export", "import", "pending-restart", "manifest", "console"]
        {
            #expect(result.standardOutput.contains(subcommand), "\(shell) completion lacks \(subcommand)")
        }
        #expect(result.standardOutput.contains(shell == "fish" ? "'manifest='" : "--manifest"))
    }

    @Test func keysCompleteFromTheRegistryOnTheLine() async throws {
        let sandbox = try CLISandbox()
        // What the generated bash script runs when TAB is pressed after `flagstaff get list.in`.
        let demo = try await sandbox.runProcess([
            "---completion", "get", "--", "positional@0", "2", "7", "flagstaff", "get", "list.in",
        ])
        #expect(demo.status == 0, "\(demo)")
        #expect(demo.standardOutput.split(separator: "\n") == ["list.infiniteScroll"])
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        let shop = try await sandbox.runProcess([
            "---completion", "set", "--", "positional@0", "4", "5", "flagstaff", "set", "--manifest", manifest, "cart.",
        ])
        #expect(
            shop.standardOutput.split(separator: "\n") == [
                "cart.coupons.autoApply", "cart.expressCheckout", "cart.saveForLater",
            ])
    }

    @Test func helpListsSubcommandsAndExitsZero() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("pending-restart"))
        #expect(result.standardOutput.contains("FLAGSTAFF_STORE"))
    }

    @Test(arguments: [[String](), ["console"], ["console", "--no-color"], ["--store", "x.json"]])
    func consoleWithoutATerminalExitsTwoPointingToScripts(command: [String]) async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runProcess(command)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("needs a terminal"), "\(result)")
        #expect(result.standardError.contains("flagstaff list"))
        #expect(result.standardError.contains("flagstaff get"))
        #expect(result.standardError.contains("flagstaff set"))
        #expect(result.standardOutput.isEmpty)
    }

    @Test func jsonOutputEscapesWhatTextOutputReplaces() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write(
            "odd.json",
            #"""
            {"name": "Odd", "flags": [{"key": "odd", "label": "a\u0085b\u2028c\u202Ed\u001be", "default": true}]}
            """#)
        for command in [["get", "odd", "--json"], ["list", "--json"], ["manifest"]] {
            let result = try await sandbox.runWithStore(command + ["--manifest", manifest])
            #expect(result.status == 0, "\(result)")
            #expect(result.standardOutput.contains(#""a\u0085b\u2028c\u202Ed\u001be""#), "\(command): \(result)")
            #expect(!result.standardOutput.unicodeScalars.contains { $0.value == 0x2028 || $0.value == 0x85 })
        }
    }

    @Test func hostileTextFromAManifestNeverReachesTheTerminalRaw() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("evil.json", ManifestFixtures.hostile)
        let commands: [[String]] = [
            ["list"], ["list", "--json"], ["get", "evil", "--explain"], ["get", "evil", "--json"],
            ["export", "--format", "text"], ["manifest"], ["set", "evil", "off"], ["get", "evi"],
            ["list", "--search", "red"],
        ]
        for command in commands {
            let result = try await sandbox.runWithStore(command + ["--manifest", manifest])
            for (stream, text) in [("stdout", result.standardOutput), ("stderr", result.standardError)] {
                let unsafe = text.unicodeScalars.filter {
                    ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
                }
                #expect(unsafe.isEmpty, "\(command) \(stream) has raw control characters: \(unsafe.map(\.value))")
            }
            #expect(result.status == 0 || command == ["get", "evi"], "\(command): \(result)")
        }
        let explain = try await sandbox.runWithStore(["get", "evil", "--explain", "--manifest", manifest])
        #expect(explain.standardOutput.contains(#"Red \u{1B}[31mALERT\u{1B}[0m"#), "\(explain)")
        let json = try await sandbox.runWithStore(["get", "evil", "--json", "--manifest", manifest])
        let object = try sandbox.jsonObject(json)
        #expect(object["label"] as? String == "Red \u{1B}[31mALERT\u{1B}[0m", "JSON keeps the exact text, escaped")
        #expect(object["description"] as? String == "clear \u{1B}[2J screen \u{9B}1m bidi \u{202E}")
    }
}
