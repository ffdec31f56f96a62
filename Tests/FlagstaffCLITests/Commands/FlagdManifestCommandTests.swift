import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffCLI

/// `--manifest` naming a flagd definitions file: every flag a member, evaluated, and QA overrides above.
@Suite("flagstaff --manifest with flagd definitions")
struct FlagdManifestCommandTests {
    static let definitions = #"""
        {"$schema": "https://flagd.dev/schema/v0/flags.json",
         "flags": {
          "new-checkout": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on",
            "targeting": {"if": [{"ends_with": [{"var": "email"}, "@example.com"]}, "off", null]}},
          "button-color": {"state": "ENABLED", "variants": {"blue": "#0000ff", "red": "#ff0000"},
            "defaultVariant": "red"}
        }}
        """#

    @Test func listsTheFlagsAsMembers() async throws {
        let sandbox = try CLISandbox()
        let flagd = try sandbox.write("flagd.json", Self.definitions)
        let result = try await sandbox.runWithStore(["list", "--manifest", flagd])
        #expect(result.status == 0, "\(result)")
        let keys = result.standardOutput.split(separator: "\n").compactMap { $0.split(separator: " ").first }
        #expect(Set(keys.map(String.init)) == ["new-checkout", "button-color"], "\(result)")
    }

    @Test func explainNamesFlagdTheVariantAndTheReasonAndAnOverrideWins() async throws {
        let sandbox = try CLISandbox()
        let flagd = try sandbox.write("flagd.json", Self.definitions)
        let explained = try await sandbox.runWithStore(["get", "new-checkout", "--explain", "--manifest", flagd])
        #expect(explained.status == 0, "\(explained)")
        #expect(explained.standardOutput.contains("* remote (flagd)  ON   (variant \"on\", DEFAULT)"), "\(explained)")

        let set = try await sandbox.runWithStore(["set", "new-checkout", "off", "--manifest", flagd])
        #expect(set.status == 0, "\(set)")
        let overridden = try await sandbox.runWithStore(["get", "new-checkout", "--explain", "--manifest", flagd])
        #expect(overridden.standardOutput.contains("* override"), "\(overridden)")
        #expect(overridden.standardOutput.contains("  remote (flagd)  ON   (variant \"on\", DEFAULT)"), "\(overridden)")
        #expect(try await sandbox.runWithStore(["get", "new-checkout", "--manifest", flagd]).standardOutput == "off\n")
    }

    @Test func theContextComesFromTheEnvironment() async throws {
        let sandbox = try CLISandbox()
        let flagd = try sandbox.write("flagd.json", Self.definitions)
        let context = try sandbox.write("context.json", #"{"targetingKey": "u1", "email": "ann@example.com"}"#)
        let explained = try await sandbox.run(
            ["get", "new-checkout", "--explain", "--manifest", flagd, "--store", sandbox.storePath],
            environment: ["FLAGSTAFF_FLAGD_CONTEXT": "@" + context])
        #expect(explained.status == 0, "\(explained)")
        #expect(
            explained.standardOutput.contains("* remote (flagd)  OFF   (variant \"off\", TARGETING_MATCH)"),
            "\(explained)")
        let bad = try await sandbox.run(
            ["get", "new-checkout", "--manifest", flagd, "--store", sandbox.storePath],
            environment: ["FLAGSTAFF_FLAGD_CONTEXT": "[1]"])
        #expect(bad.status != 0)
        #expect(bad.standardError.contains("FLAGSTAFF_FLAGD_CONTEXT: expected a JSON object"), "\(bad)")
    }

    @Test func theConsolesRegistryFollowsTheFile() async throws {
        let sandbox = try CLISandbox()
        let flagd = try sandbox.write("flagd.json", Self.definitions)
        let options = try RegistrySourceOptions.parse(["--manifest", flagd, "--store", sandbox.storePath])
        let loaded = try RegistryLoader.load(options, environment: [:], watchStore: true)
        let color = try #require(loaded.registry.feature(forKey: "button-color") as? Setting<String>)
        #expect(color.value == "#ff0000")
        let blue = Self.definitions.replacingOccurrences(
            of: #""defaultVariant": "red""#, with: #""defaultVariant": "blue""#)
        _ = try sandbox.write("flagd.json", blue)
        #expect(await eventually { color.value == "#0000ff" })
    }

    @Test func badDefinitionsNameTheFileAndThePath() async throws {
        let sandbox = try CLISandbox()
        let flagd = try sandbox.write("flagd.json", #"{"flags": {"x": {"variants": {"on": true}}}}"#)
        let result = try await sandbox.runWithStore(["list", "--manifest", flagd])
        #expect(result.status == 1)
        #expect(result.standardError.contains("flagd.json: $.flags.x"), "\(result)")
    }
}
