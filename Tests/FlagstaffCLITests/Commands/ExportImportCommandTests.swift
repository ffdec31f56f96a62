import Foundation
import Testing

@Suite("flagstaff export and import")
struct ExportImportCommandTests {
    @Test func exportJSONHoldsThisRegistrysOverridesInStoreFormat() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write(
            "overrides.json",
            #"{"version":1,"overrides":{"other.app.flag":"on","blueText":"on","list.compactRows":"off"}}"#)
        let result = try await sandbox.runWithStore(["export"])
        #expect(result.status == 0, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(object["version"] as? Int == 1)
        #expect(object["overrides"] as? [String: String] == ["blueText": "on", "list.compactRows": "off"])
        #expect(Set(object.keys) == ["version", "overrides"])
    }

    @Test func exportJSONIsWrittenAsTheStoreWritesItsFile() async throws {
        let sandbox = try CLISandbox()
        for (key, state) in [("list.pullToRefresh", "off"), ("blueText", "on")] {
            #expect(try await sandbox.runWithStore(["set", key, state]).status == 0)
        }
        let result = try await sandbox.runWithStore(["export"])
        #expect(result.status == 0, "\(result)")
        #expect(Data(result.standardOutput.utf8) == sandbox.storeBytes())
    }

    @Test func exportTextHasOneLinePerFlag() async throws {
        let sandbox = try CLISandbox()
        let manifest = try sandbox.write("shop.json", ManifestFixtures.shop)
        #expect(try await sandbox.runWithStore(["set", "cart.saveForLater", "on", "--manifest", manifest]).status == 0)
        let result = try await sandbox.runWithStore(["export", "--format", "text", "--manifest", manifest])
        #expect(result.status == 0, "\(result)")
        #expect(
            result.standardOutput.split(separator: "\n").map(String.init) == [
                "Dark Mode [OFF by default]",
                "New Home [ON by default]",
                "Cart → Save for Later [ON by override]",
                "Cart → Express Checkout [ON by default]",
                "Cart → Coupons → Auto Apply [OFF by default]",
            ])
    }

    @Test func exportThenImportReproducesTheOverrides() async throws {
        let sandbox = try CLISandbox()
        for (key, state) in [("blueText", "on"), ("moments.autoplayVideos", "on"), ("list.pullToRefresh", "off")] {
            #expect(try await sandbox.runWithStore(["set", key, state]).status == 0)
        }
        let exported = try await sandbox.runWithStore(["export"])
        let file = try sandbox.write("exported.json", exported.standardOutput)
        let otherStore = sandbox.directory.appendingPathComponent("other.json").path
        let imported = try await sandbox.run(["import", file, "--store", otherStore])
        #expect(imported.status == 0, "\(imported)")
        let original = try sandbox.storedOverrides()
        let copy =
            try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: otherStore)))
            as? [String: Any]
        #expect(copy?["overrides"] as? [String: String] == original)
    }

    @Test func importMergesAndDefaultRemoves() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on","list.compactRows":"off"}}"#)
        let file = try sandbox.write(
            "in.json", #"{"version":1,"overrides":{"debugLogging":"off","list.compactRows":"default"}}"#)
        let result = try await sandbox.runWithStore(["import", file])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on", "debugLogging": "off"])
        #expect(result.standardOutput.contains("debugLogging: off"))
        #expect(result.standardOutput.contains("list.compactRows: default"))
    }

    @Test func importReplaceResetsFlagsTheFileDoesNotMention() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on","other.app.flag":"off"}}"#)
        let file = try sandbox.write("in.json", #"{"version":1,"overrides":{"debugLogging":"off"}}"#)
        #expect(try await sandbox.runWithStore(["import", "--replace", file]).status == 0)
        #expect(try sandbox.storedOverrides() == ["debugLogging": "off", "other.app.flag": "off"])
    }

    @Test func importReadsStandardInput() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(
            ["import", "-"], stdin: Data(#"{"version":1,"overrides":{"blueText":"on"}}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.storedOverrides() == ["blueText": "on"])
    }

    @Test func importListsEveryBadEntryAtOnceUnknownKeysAndBadValues() async throws {
        let sandbox = try CLISandbox()
        let file = try sandbox.write(
            "in.json",
            #"{"version":1,"overrides":{"blueTxt":"on","maxItems":500,"theme":"sepia","gone.key":"on","debugLogging":"off"}}"#
        )
        let result = try await sandbox.runWithStore(["import", file])
        #expect(result.status == 1, "\(result)")
        let text = result.standardError
        for expected in [
            "unknown flag key 'blueTxt'", "'gone.key'", #"$.overrides["maxItems"]: must be 1…100, found 500"#,
            #"$.overrides["theme"]: must be one of light, dark, system, found "sepia""#,
            "nothing was imported; fix the file, or pass --allow-unknown to keep unknown keys",
        ] {
            #expect(text.contains(expected), "\(expected): \(result)")
        }
        #expect(sandbox.storeBytes() == nil)
    }

    @Test func importRefusesUnknownKeysUnlessAllowed() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let before = sandbox.storeBytes()
        let file = try sandbox.write(
            "in.json", #"{"version":1,"overrides":{"debugLogging":"off","blueTxt":"off","nope.nothing":"on"}}"#)
        let refused = try await sandbox.runWithStore(["import", file])
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.contains("unknown flag key 'blueTxt'"))
        #expect(refused.standardError.contains("did you mean 'blueText'"))
        #expect(refused.standardError.contains("unknown flag key 'nope.nothing'"))
        #expect(refused.standardError.contains("nothing was imported"))
        #expect(sandbox.storeBytes() == before)

        let allowed = try await sandbox.runWithStore(["import", "--allow-unknown", file])
        #expect(allowed.status == 0, "\(allowed)")
        #expect(
            try sandbox.storedOverrides() == [
                "blueText": "on", "debugLogging": "off", "blueTxt": "off", "nope.nothing": "on",
            ])
    }

    @Test(arguments: [
        (
            #"{"version":1,"overrides":{"blueText":"maybe"}}"#,
            #"$.overrides["blueText"]: expected "on", "off" or "default", found "maybe""#
        ),
        (
            #"{"version":1,"overrides":{"blueText":true}}"#,
            #"$.overrides["blueText"]: expected "on", "off" or "default", found true"#
        ),
        (
            #"{"version":1,"overrides":{"blueText":"on","debugLogging":1,"list.compactRows":"of"}}"#,
            #"$.overrides["debugLogging"]: expected "on", "off" or "default", found 1"#
        ),
        (#"{"version":2,"overrides":{}}"#, #"$.version: unsupported "version" 2 (expected 1)"#),
        (#"{"version":true,"overrides":{}}"#, #"$.version: unsupported "version" true (expected 1)"#),
        (#"{"overrides":{}}"#, #"$: missing "version" (expected 1)"#),
        (#"{"version":1}"#, #"$: missing "overrides""#),
        (#"{"version":1,"overrides":[]}"#, "$.overrides: expected an object"),
        (#"{"version":1,"overrides":{},"extra":1}"#, "$.extra: unknown field"),
        (#"[1,2]"#, "$: expected a JSON object"),
        (#"{"version":1,"overrides":{"#, "not valid JSON"),
        (" \n", "the file is empty"),
    ])
    func importRejectsBadDocumentsAndWritesNothing(document: String, message: String) async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"list.compactRows":"on"}}"#)
        let before = sandbox.storeBytes()
        let file = try sandbox.write("in.json", document)
        let result = try await sandbox.runWithStore(["import", file])
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains(file))
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func importOfAMissingFileNamesIt() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore([
            "import", sandbox.directory.appendingPathComponent("absent.json").path,
        ])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot read"))
        #expect(result.standardError.contains("absent.json"))
        #expect(sandbox.storeBytes() == nil)
    }
}
