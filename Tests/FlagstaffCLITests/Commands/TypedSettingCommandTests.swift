import Flagstaff
import Foundation
import Testing

@testable import FlagstaffCLI

/// Typed settings on the command line, with the demo registry's `cardColor` (string), `welcomeMessage` (string),
/// `maxItems` (integer 1…100), `theme` (light/dark/system, requires a restart) and `appFeatureConfig` (JSON). In
/// process. The demo registry's own declarations: Demo/DemoRegistryTests.swift.
@Suite("typed settings on the command line")
struct TypedSettingCommandTests {
    static let config = ##"{"isNewFeatureEnabled":false,"maxUploadSize":10485760,"themeColors":{"primary":"#f05138"}}"##

    // MARK: set and get

    @Test(arguments: [
        ("cardColor", "#000000", ##""#000000""##, "#000000", ##"cardColor: "#000000" ("#000000" by override)"##),
        (
            "welcomeMessage", "Hello, QA", #""Hello, QA""#, "Hello, QA",
            #"welcomeMessage: "Hello, QA" ("Hello, QA" by override)"#
        ),
        ("maxItems", "50", "50", "50", "maxItems: 50 (50 by override)"),
        ("maxItems", " 7 ", "7", "7", "maxItems: 7 (7 by override)"),
        ("theme", "dark", #""dark""#, "dark", "theme: dark (dark by override)"),
        (
            "appFeatureConfig", #"{"themeColors":{}, "maxUploadSize": 1, "isNewFeatureEnabled": true}"#,
            #"{"isNewFeatureEnabled":true,"maxUploadSize":1,"themeColors":{}}"#,
            #"{"isNewFeatureEnabled":true,"maxUploadSize":1,"themeColors":{}}"#,
            #"appFeatureConfig: {"isNewFeatureEnabled":true,"maxUploadSize":1,"themeColors":{}} ({"isNewFeatureEnabled":true,"maxUploadSize":1,"themeColors":{}} by override)"#
        ),
        ("blueText", "on", #""on""#, "on", "blueText: on (ON by override)"),
    ])
    func setParsesTheValueByTheMembersType(key: String, value: String, stored: String, got: String, said: String)
        async throws
    {
        let sandbox = try CLISandbox()
        let set = try await sandbox.runWithStore(["set", key, value])
        #expect(set.status == 0, "\(set)")
        #expect(set.standardOutput == said + "\n")
        #expect(try sandbox.storedJSON() == [key: stored])
        let get = try await sandbox.runWithStore(["get", key])
        #expect(get.status == 0, "\(get)")
        #expect(get.standardOutput == got + "\n")
    }

    @Test func defaultRemovesASettingsOverride() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "maxItems", "50"]).status == 0)
        #expect(try await sandbox.runWithStore(["set", "cardColor", "#101010"]).status == 0)
        let reset = try await sandbox.runWithStore(["set", "maxItems", "default"])
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.standardOutput == "maxItems: default (20 by default)\n")
        #expect(try sandbox.storedJSON() == ["cardColor": ##""#101010""##])
    }

    @Test func jsonValueStoresTheWordDefaultInATextSetting() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["set", "welcomeMessage", "--json", #""default""#])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.storedJSON() == ["welcomeMessage": #""default""#])
        #expect(try await sandbox.runWithStore(["get", "welcomeMessage"]).standardOutput == "default\n")
        let number = try await sandbox.runWithStore(["set", "maxItems", "--json", "30"])
        #expect(number.status == 0, "\(number)")
        let wrongType = try await sandbox.runWithStore(["set", "maxItems", "--json", #""30""#])
        #expect(wrongType.status == 2, "\(wrongType)")
        #expect(wrongType.standardError.contains("expected a whole number"), "\(wrongType)")
    }

    @Test func aRestartRequiringSettingSaysSoWhenItsValueChanges() async throws {
        let sandbox = try CLISandbox()
        let changed = try await sandbox.runWithStore(["set", "theme", "dark"])
        #expect(changed.standardError == "flagstaff: note: theme requires a restart of the app to take effect\n")
        let same = try await sandbox.runWithStore(["set", "theme", "dark"])
        #expect(same.standardError.isEmpty, "\(same)")
    }

    @Test(arguments: [
        ("maxItems", "500", "must be 1…100", "expected a whole number from 1 to 100, or 'default'"),
        ("maxItems", "0", "must be 1…100", "from 1 to 100"),
        ("maxItems", "lots", "must be a whole number", "expected a whole number from 1 to 100"),
        ("maxItems", "2.5", "must be a whole number", "expected a whole number from 1 to 100"),
        ("maxItems", "", "must be a whole number", "expected a whole number from 1 to 100"),
        ("theme", "sepia", "must be one of light, dark, system", "expected one of light, dark, system"),
        ("theme", "Dark", "must be one of light, dark, system", "expected one of light, dark, system"),
        ("appFeatureConfig", "{not json", "not valid JSON", "expected JSON like the default, \(config)"),
        (
            "appFeatureConfig", #"{"isNewFeatureEnabled":true,"maxUploadSize":"big","themeColors":{}}"#,
            "at $.maxUploadSize: expected a whole number", "or @FILE holding it"
        ),
        (
            "appFeatureConfig", #"{"isNewFeatureEnabled":true,"maxUploadSize":1,"themeColors":{"primary":3}}"#,
            "at $.themeColors.primary: expected a string", "expected JSON like the default"
        ),
        ("appFeatureConfig", #"{"isNewFeatureEnabled":true}"#, #"missing "maxUploadSize""#, "JSON like"),
        ("blueText", "maybe", "must be on or off", "expected on or off, or 'default'"),
    ])
    func aBadValueIsAUsageErrorAndTheStoreStaysByteIdentical(
        key: String, value: String, reason: String, expectation: String
    ) async throws {
        let sandbox = try CLISandbox()
        try sandbox.write(
            "overrides.json", #"{"version":1,"overrides":{"maxItems":42, "theme":"light","other.app":[1]}}"#)
        let before = try #require(sandbox.storeBytes())
        let result = try await sandbox.runWithStore(["set", key, value])
        #expect(result.status == 2, "\(result)")
        #expect(
            result.standardError.hasPrefix("flagstaff: error: invalid value '\(value)' for '\(key)' (VALUE): "),
            "\(result)")
        #expect(result.standardError.contains(reason), "\(result)")
        #expect(result.standardError.contains(expectation), "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(sandbox.storeBytes() == before)
    }

    @Test func aRefusedValueCreatesNoStore() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["set", "maxItems", "101"])
        #expect(result.status == 2, "\(result)")
        #expect(sandbox.storeBytes() == nil)
    }

    // MARK: @FILE

    @Test func aJSONSettingIsReadFromAFile() async throws {
        let sandbox = try CLISandbox()
        let file = try sandbox.write(
            "config.json",
            """
            {
              "isNewFeatureEnabled": true,
              "maxUploadSize": 2048,
              "themeColors": {"primary": "#000000", "accent": "#ffffff"}
            }
            """)
        let result = try await sandbox.runWithStore(["set", "appFeatureConfig", "@" + file])
        #expect(result.status == 0, "\(result)")
        #expect(
            try sandbox.storedJSON() == [
                "appFeatureConfig":
                    ##"{"isNewFeatureEnabled":true,"maxUploadSize":2048,"themeColors":{"accent":"#ffffff","primary":"#000000"}}"##
            ])
    }

    @Test func atDashReadsStandardInput() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(
            ["set", "appFeatureConfig", "@-"],
            stdin: Data(#"{"isNewFeatureEnabled":true,"maxUploadSize":5,"themeColors":{}}"#.utf8))
        #expect(result.status == 0, "\(result)")
        #expect(
            try sandbox.storedJSON() == [
                "appFeatureConfig": #"{"isNewFeatureEnabled":true,"maxUploadSize":5,"themeColors":{}}"#
            ])
    }

    @Test func aBadFileIsRefusedNamingTheFileAndThePath() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let before = sandbox.storeBytes()
        let bad = try sandbox.write(
            "bad.json", #"{"isNewFeatureEnabled":"yes","maxUploadSize":1,"themeColors":{}}"#)
        let refused = try await sandbox.runWithStore(["set", "appFeatureConfig", "@" + bad])
        #expect(refused.status == 2, "\(refused)")
        #expect(
            refused.standardError.hasPrefix(
                "flagstaff: error: invalid value '@\(bad)' for 'appFeatureConfig' (VALUE): at $.isNewFeatureEnabled: expected true or false"
            ), "\(refused)")
        let missing = sandbox.directory.appendingPathComponent("absent.json").path
        let unreadable = try await sandbox.runWithStore(["set", "appFeatureConfig", "@" + missing])
        #expect(unreadable.status == 1, "\(unreadable)")
        #expect(unreadable.standardError.contains("cannot read the file \(missing): no such file or directory"))
        let empty = try await sandbox.runWithStore(["set", "appFeatureConfig", "@"])
        #expect(empty.status == 2, "\(empty)")
        #expect(empty.standardError.contains("'@' needs a file"), "\(empty)")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func aTextSettingTakesAnAtSignLiterally() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runWithStore(["set", "welcomeMessage", "@everyone"])
        #expect(result.status == 0, "\(result)")
        #expect(try sandbox.storedJSON() == ["welcomeMessage": #""@everyone""#])
    }

    // MARK: get --json and --explain

    @Test func getJSONHasTheTypedValueAndTheChain() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "maxItems", "50"]).status == 0)
        let result = try await sandbox.runWithStore(["get", "maxItems", "--json"])
        #expect(result.status == 0, "\(result)")
        let object = try sandbox.jsonObject(result)
        #expect(object["value"] as? Int == 50)
        #expect(object["override"] as? Int == 50)
        #expect(object["default"] as? Int == 20)
        #expect(object["source"] as? String == "override")
        #expect(object["enabled"] == nil)
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.map { $0["value"] as? Int } == [50, nil, 20])
        #expect(chain.map { $0["decided"] as? Bool } == [true, false, false])
    }

    @Test func explainShowsTheTypeAndTypedValues() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "maxItems", "50"]).status == 0)
        let result = try await sandbox.runWithStore(["get", "maxItems", "--explain"])
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "maxItems — Max Items")
        #expect(lines.contains("  value     50 by override"))
        #expect(lines.contains("  type      integer, 1…100"))
        #expect(lines.contains("  override  50"))
        #expect(lines.contains("  restart   not required"))
        #expect(lines.contains { $0.hasPrefix("* override ") && $0.hasSuffix(" 50") })
        #expect(lines.contains { $0.hasPrefix("  remote ") && $0.contains(#"(no remote value for "max_items")"#) })
        #expect(lines.contains { $0.hasPrefix("  default ") && $0.hasSuffix(" 20") })

        let theme = try await sandbox.runWithStore(["get", "theme", "--explain"])
        #expect(theme.standardOutput.contains("  type      choice: light, dark, system\n"))
        #expect(theme.standardOutput.contains("  restart   required; not pending (value without override is system)"))
        let card = try await sandbox.runWithStore(["get", "cardColor", "--explain"])
        #expect(card.standardOutput.contains(##"  value     "#f05138" by default"##), "\(card)")
    }

    @Test func getEscapesControlCharactersOfAStringValue() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "welcomeMessage", "hi\u{1B}[2Jthere"]).status == 0)
        let plain = try await sandbox.runWithStore(["get", "welcomeMessage"])
        #expect(!plain.standardOutput.unicodeScalars.contains { $0.value == 0x1B }, "\(plain)")
        #expect(plain.standardOutput == "hi\\u{1B}[2Jthere\n")
        let json = try await sandbox.runWithStore(["get", "welcomeMessage", "--json"])
        #expect(try sandbox.jsonObject(json)["value"] as? String == "hi\u{1B}[2Jthere")
    }

    // MARK: list, export, import, reset

    @Test func listShowsTypedValuesCutToTheColumn() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "maxItems", "50"]).status == 0)
        let result = try await sandbox.runWithStore(["list"])
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        func fields(_ key: String) throws -> [String] {
            let line = try #require(lines.first { $0.hasPrefix(key + " ") })
            return line.split(separator: " ").filter { !$0.isEmpty }.dropFirst().map(String.init)
        }
        #expect(try fields("cardColor") == [##""#f05138""##, "default"])
        #expect(try fields("maxItems") == ["50", "override", "*"])
        #expect(try fields("theme") == ["system", "default", "restart"])
        let config = try #require(lines.first { $0.hasPrefix("appFeatureConfig ") })
        #expect(config.contains(#" {"isNewFeatureEnabled":false,"maxUpload… "#), "\(config)")
        // Every value starts in the same column (the demo's keys are ASCII).
        let keyWidth = lines.map { $0.prefix { $0 != " " }.count }.max() ?? 0
        for line in lines.map(Array.init) {
            #expect(line[keyWidth + 1] == " " && line[keyWidth + 2] != " ", "\(String(line))")
        }
    }

    @Test func exportAndImportCarryTypedValues() async throws {
        let sandbox = try CLISandbox()
        for (key, value) in [("maxItems", "50"), ("theme", "dark"), ("cardColor", "#000000"), ("blueText", "on")] {
            #expect(try await sandbox.runWithStore(["set", key, value]).status == 0)
        }
        let exported = try await sandbox.runWithStore(["export"])
        #expect(exported.status == 0, "\(exported)")
        #expect(Data(exported.standardOutput.utf8) == sandbox.storeBytes())
        let file = try sandbox.write("exported.json", exported.standardOutput)
        let otherStore = sandbox.directory.appendingPathComponent("other.json").path
        let imported = try await sandbox.run(["import", file, "--store", otherStore])
        #expect(imported.status == 0, "\(imported)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: otherStore)) == sandbox.storeBytes())
        #expect(imported.standardOutput.contains("maxItems: 50\n"), "\(imported)")
        #expect(imported.standardOutput.contains("cardColor: \"#000000\"\n"), "\(imported)")
        #expect(imported.standardOutput.contains("blueText: on\n"), "\(imported)")

        let text = try await sandbox.runWithStore(["export", "--format", "text"])
        let lines = text.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("Max Items [50 by override]"))
        #expect(lines.contains(##"Card Color ["#000000" by override]"##))
        #expect(lines.contains(#"Welcome Message ["Welcome to Moments" by default]"#))
        #expect(lines.contains("Theme [dark by override]"))
        #expect(lines.contains("App Feature Config [\(Self.config) by default]"))
    }

    @Test func importValidatesTypedValuesAndDefaultOrNullRemoves() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write(
            "overrides.json", ##"{"version":1,"overrides":{"maxItems":42,"theme":"light","cardColor":"#111111"}}"##)
        let file = try sandbox.write(
            "in.json",
            #"{"version":1,"overrides":{"maxItems":"default","theme":null,"welcomeMessage":"Hi","appFeatureConfig":{"isNewFeatureEnabled":true,"maxUploadSize":3,"themeColors":{}}}}"#
        )
        let result = try await sandbox.runWithStore(["import", file])
        #expect(result.status == 0, "\(result)")
        #expect(
            try sandbox.storedJSON() == [
                "cardColor": ##""#111111""##, "welcomeMessage": ##""Hi""##,
                "appFeatureConfig": #"{"isNewFeatureEnabled":true,"maxUploadSize":3,"themeColors":{}}"#,
            ])
        #expect(result.standardOutput.contains("maxItems: default\n"))
        #expect(result.standardOutput.contains("theme: default\n"))
        #expect(result.standardError.contains("theme requires a restart"), "\(result)")
        #expect(result.standardError.contains("imported 4 entries; 4 override(s) changed"), "\(result)")
    }

    @Test func importRefusesInvalidTypedValuesNamingEveryPathAndWritesNothing() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"maxItems":42}}"#)
        let before = sandbox.storeBytes()
        let file = try sandbox.write(
            "in.json",
            #"{"version":1,"overrides":{"maxItems":500,"theme":"sepia","cardColor":7,"blueText":"on","appFeatureConfig":{"isNewFeatureEnabled":true,"maxUploadSize":"big","themeColors":{}}}}"#
        )
        let result = try await sandbox.runWithStore(["import", file])
        #expect(result.status == 1, "\(result)")
        let lines = result.standardError.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"flagstaff: error: \#(file): $.overrides["appFeatureConfig"].maxUploadSize: expected a whole number"#,
                #"\#(file): $.overrides["cardColor"]: expected a string, found 7"#,
                #"\#(file): $.overrides["maxItems"]: must be 1…100, found 500"#,
                #"\#(file): $.overrides["theme"]: must be one of light, dark, system, found "sepia""#,
                "nothing was imported; fix the file",
            ], "\(result)")
        #expect(sandbox.storeBytes() == before)
    }

    @Test func resetRemovesSettingsOverrides() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "maxItems", "50"]).status == 0)
        #expect(try await sandbox.runWithStore(["set", "theme", "dark"]).status == 0)
        let result = try await sandbox.runWithStore(["reset", "maxItems", "theme", "cardColor"])
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput == "maxItems: default (20 by default)\ntheme: default (system by default)\n")
        #expect(try sandbox.storedJSON() == [:])
    }

    // MARK: pending-restart

    @Test func pendingRestartListsTypedChangesWithOldAndNewValues() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runWithStore(["set", "theme", "dark"]).status == 0)
        let text = try await sandbox.runWithStore(["pending-restart"])
        #expect(text.status == 3, "\(text)")
        #expect(text.standardOutput == "theme  system → dark  (Theme)\n")
        let json = try await sandbox.runWithStore(["pending-restart", "--json"])
        let entry = try #require((try sandbox.jsonObject(json)["flags"] as? [[String: Any]])?.first)
        #expect(entry["key"] as? String == "theme")
        #expect(entry["type"] as? String == "choice")
        #expect(entry["launchValue"] as? String == "system")
        #expect(entry["currentValue"] as? String == "dark")
        #expect(entry["launchValueFrom"] as? String == "withoutOverride")

        #expect(try await sandbox.runWithStore(["pending-restart", "--record"]).status == 0)
        let snapshot = sandbox.directory.appendingPathComponent("overrides.json.launch.json")
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: snapshot)) as? [String: Any]
        #expect((object?["values"] as? [String: Any])?["theme"] as? String == "dark")
        #expect(try await sandbox.runWithStore(["set", "theme", "light"]).status == 0)
        let after = try await sandbox.runWithStore(["pending-restart"])
        #expect(after.standardOutput == "theme  dark → light  (Theme)\n", "\(after)")
    }

    @Test func aSnapshotValueThatDoesNotFitTheSettingIsIgnored() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write(
            "overrides.json.launch.json", #"{"version":1,"values":{"theme":"sepia","useTabBarNav":true}}"#)
        let result = try await sandbox.runWithStore(["pending-restart", "--json"])
        #expect(result.status == 3, "\(result)")
        let entries = try #require(try sandbox.jsonObject(result)["flags"] as? [[String: Any]])
        // useTabBarNav launched on and is off now; theme's "sepia" is not a theme: its launch value is its default.
        #expect(entries.map { $0["key"] as? String } == ["useTabBarNav"])
    }

    @Test func fetchReportsTheSettingsBoundToARemoteKey() throws {
        let sandbox = try CLISandbox()
        let demo = DemoFeatures.registry(
            store: try FileOverrideStore(url: sandbox.storeURL), options: RegistryOptions(storeWatchInterval: nil))
        let remote = demo.allFeatures.filter(FetchCommand.readsRemote).map(\.key)
        #expect(
            remote == ["cardColor", "welcomeMessage", "maxItems", "appFeatureConfig", "moments.isRoundedAvatar"])
    }

    @Test func setCompletesTheValuesOfTheKeyOnTheLine() throws {
        let sandbox = try CLISandbox()
        func values(_ words: [String], _ prefix: String = "") -> [String] {
            KeyCompletion.values(words: ["flagstaff", "set"] + words + [prefix], prefix: prefix)
        }
        #expect(values(["theme"]) == ["light", "dark", "system", "default"])
        #expect(values(["theme"], "d") == ["dark", "default"])
        #expect(values(["--demo", "--store", sandbox.storePath, "blueText"]) == ["on", "off", "default"])
        #expect(values(["--store", sandbox.storePath, "blueText"]).isEmpty, "no registry announced: nothing offered")
        #expect(values(["maxItems"]) == ["default"])
        #expect(values(["noSuchKey"]).isEmpty)
        #expect(values([]).isEmpty)
    }

    // MARK: Stored values of the wrong type

    static let storeCommands: [[String]] = [
        ["list"], ["list", "--json"], ["get", "blueText"], ["get", "blueText", "--explain"], ["set", "blueText", "on"],
        ["reset", "blueText"], ["export"], ["export", "--format", "text"], ["import", "IMPORT"], ["pending-restart"],
    ]

    @Test(arguments: storeCommands)
    func storedValuesOfTheWrongTypeAreNotedAndLeftInTheFile(command: [String]) async throws {
        let sandbox = try CLISandbox()
        try sandbox.write(
            "overrides.json", #"{"version":1,"overrides":{"maxItems":500,"theme":3,"debugLogging":"maybe"}}"#)
        let importFile = try sandbox.write("import.json", #"{"version":1,"overrides":{"blueText":"on"}}"#)
        let result = try await sandbox.runWithStore(command.map { $0 == "IMPORT" ? importFile : $0 })
        #expect(result.status == 0, "\(result)")
        let notes = result.standardError.split(separator: "\n").filter { $0.contains("ignored") }.map(String.init)
        let prefix = "flagstaff: note: the override store \(sandbox.storePath): stored value"
        #expect(
            notes == [
                #"\#(prefix) "maybe" for "debugLogging" ignored: expected "on" or "off", found "maybe" (left in the file)"#,
                #"\#(prefix) 500 for "maxItems" ignored: must be 1…100 (left in the file)"#,
                #"\#(prefix) 3 for "theme" ignored: expected one of light, dark, system, found 3 (left in the file)"#,
            ], "\(result)")
        let stored = try sandbox.storedJSON()
        #expect(stored["maxItems"] == "500")
        #expect(stored["theme"] == "3")
        #expect(stored["debugLogging"] == #""maybe""#)
    }

    @Test func aSettingWithAWrongStoredValueReadsItsDefaultAndResetRemovesTheEntry() async throws {
        let sandbox = try CLISandbox()
        try sandbox.write("overrides.json", #"{"version":1,"overrides":{"maxItems":500}}"#)
        let get = try await sandbox.runWithStore(["get", "maxItems"])
        #expect(get.standardOutput == "20\n")
        let reset = try await sandbox.runWithStore(["reset", "maxItems"])
        #expect(reset.status == 0, "\(reset)")
        #expect(reset.standardOutput == "maxItems: default (20 by default)\n")
        #expect(try sandbox.storedJSON() == [:])
    }
}
