import Foundation
import Testing

@testable import Flagstaff

/// Typed settings in manifests: the JSON shape, export, building, the round trip and the errors.
@Suite struct ManifestSettingTests {
    /// What a tool sees of a member: its type, default, range, texts and restart flag.
    private static func describe(_ registry: AnyFeatureRegistry) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: registry.allFeatures.map { member in
                let range = member.valueRange.map { "\($0.lower.json)…\($0.upper.json)" } ?? "-"
                return (
                    member.key,
                    "\(member.settingType)|\(member.declaredDefault.json)|\(range)|\(member.label)|"
                        + "\(member.groupPath)|\(member.requiresRestart)|\(member.description ?? "")"
                )
            })
    }

    @Test func registryToManifestToRegistryKeepsMembersTypesDefaultsRangesAndChoices() throws {
        let typed = FeatureRegistry(TypedFeatures())
        let manifest = typed.manifest()
        #expect(manifest.flags.map(\.key) == ["blueText"])
        #expect(manifest.settings.map(\.key) == ["cardColor", "maxItems", "ratio", "theme", "config", "compact"])
        #expect(manifest.groups.first?.settings.map(\.key) == ["layout.columns"])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(manifest)
        let decoded = try RegistryManifest.decode(data, source: "typed.json")
        #expect(decoded == manifest)

        let rebuilt = try AnyFeatureRegistry(manifest: decoded)
        #expect(Self.describe(rebuilt) == Self.describe(typed))
        #expect(rebuilt.allFeatures.map(\.key) == typed.allFeatures.map(\.key))
        #expect(rebuilt.feature(forKey: "maxItems") is Setting<Int>)
        #expect(rebuilt.feature(forKey: "ratio") is Setting<Double>)
        #expect(rebuilt.feature(forKey: "cardColor") is Setting<String>)
        #expect(rebuilt.feature(forKey: "theme") is Setting<String>)
        #expect(rebuilt.feature(forKey: "compact") is Setting<Bool>)
        #expect(rebuilt.feature(forKey: "config") is Setting<JSONSettingValue>)
        #expect(rebuilt.manifest() == manifest)
        // The rebuilt members validate as the originals do.
        let maxItems = try #require(rebuilt.feature(forKey: "maxItems"))
        #expect(throws: SettingValueError("must be 1…100")) { try maxItems.parse("500") }
        let theme = try #require(rebuilt.feature(forKey: "theme"))
        #expect(throws: SettingValueError("must be one of light, dark, system")) { try theme.parse("blue") }
        #expect(try theme.parse("dark") == OverrideValue(string: "dark"))
    }

    @Test func settingsHaveAPlainJSONShape() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let settings = FeatureRegistry(TypedFeatures()).manifest().settings
        func json(_ key: String) throws -> String {
            let setting = try #require(settings.first { $0.key == key })
            return String(decoding: try encoder.encode(setting), as: UTF8.self)
        }
        #expect(
            try json("maxItems")
                == #"{"default":20,"key":"maxItems","label":"Max Items","range":[1,100],"requiresRestart":false,"type":"integer"}"#
        )
        #expect(
            try json("theme")
                == #"{"choices":["light","dark","system"],"default":"system","key":"theme","label":"Theme","requiresRestart":true,"type":"choice"}"#
        )
        #expect(
            try json("cardColor")
                == ##"{"default":"#f05138","description":"Card background","key":"cardColor","label":"Card Color","requiresRestart":false,"type":"string"}"##
        )
        #expect(try json("compact").contains(#""default":false"#))
        #expect(
            try json("config").contains(
                ##""default":{"isNewFeatureEnabled":false,"maxUploadSize":10485760,"themeColors":{"primary":"#f05138"}}"##
            ))
    }

    @Test func aManifestWithoutSettingsReadsAndWritesAsBefore() throws {
        let text = #"{"name":"Tiny","flags":[{"key":"a"}],"groups":[{"key":"g","flags":[{"key":"g.b"}]}]}"#
        let manifest = try RegistryManifest.decode(Data(text.utf8))
        #expect(manifest.settings.isEmpty && manifest.groups[0].settings.isEmpty)
        let encoded = String(decoding: try JSONEncoder().encode(manifest), as: UTF8.self)
        #expect(!encoded.contains("settings"))
        let registry = try AnyFeatureRegistry(manifest: manifest)
        #expect(registry.allFeatures.allSatisfy { $0 is AnyFlag })
    }

    @Test func aHandWrittenManifestBuildsEveryKindOfSetting() async throws {
        let text = """
            {"name": "Moments",
             "flags": [{"key": "blueText"}],
             "settings": [
               {"key": "cardColor", "type": "string", "default": "#f05138", "description": "Card background"},
               {"key": "maxItems", "type": "integer", "default": 20, "range": [1, 100], "label": "Items"},
               {"key": "ratio", "type": "double", "default": 0.5, "range": [0, 1]},
               {"key": "theme", "type": "choice", "choices": ["light", "dark", "system"], "default": "system",
                "requiresRestart": true},
               {"key": "compact", "type": "boolean", "default": true},
               {"key": "appFeatureConfig", "type": "json",
                "default": {"isNewFeatureEnabled": false, "maxUploadSize": 10485760, "themeColors": {"primary": "#f05138"}}},
               {"key": "nothing", "type": "json", "default": null}
             ],
             "groups": [{"key": "list", "settings": [{"key": "list.pageSize", "type": "integer", "default": 25}]}]}
            """
        let store = InMemoryOverrideStore()
        let registry = try AnyFeatureRegistry(manifest: try RegistryManifest.decode(Data(text.utf8)), store: store)
        let cardColor = try #require(registry.feature(forKey: "cardColor") as? Setting<String>)
        #expect(cardColor.value == "#f05138" && cardColor.description == "Card background")
        let maxItems = try #require(registry.feature(forKey: "maxItems") as? Setting<Int>)
        #expect(maxItems.value == 20 && maxItems.label == "Items")
        maxItems.overriddenValue = 500
        #expect(maxItems.value == 20, "out of range: refused")
        #expect(registry.lastRefusedChange?.key == "maxItems")
        maxItems.overriddenValue = 50
        try await registry.flush()
        #expect(store.load()["maxItems"]?.json == "50")
        let ratio = try #require(registry.feature(forKey: "ratio") as? Setting<Double>)
        #expect(ratio.value == 0.5)
        #expect(throws: SettingValueError.self) { try ratio.setOverriddenValue(1.5) }
        let theme = try #require(registry.feature(forKey: "theme") as? Setting<String>)
        #expect(theme.settingType == .choice(["light", "dark", "system"]) && theme.requiresRestart)
        #expect(throws: SettingValueError.self) { try theme.setOverriddenValue("blue") }
        let compact = try #require(registry.feature(forKey: "compact") as? Setting<Bool>)
        #expect(compact.value)
        let config = try #require(registry.feature(forKey: "appFeatureConfig") as? Setting<JSONSettingValue>)
        #expect(config.value["maxUploadSize"] == .number(10_485_760))
        #expect(config.value["themeColors"]?["primary"] == .string("#f05138"))
        #expect(
            config.currentValue.json
                == ##"{"isNewFeatureEnabled":false,"maxUploadSize":10485760,"themeColors":{"primary":"#f05138"}}"##)
        #expect(throws: SettingValueError.self) { try config.parse("{not json") }
        let nothing = try #require(registry.feature(forKey: "nothing") as? Setting<JSONSettingValue>)
        #expect(nothing.value == .null)
        let pageSize = try #require(registry.feature(forKey: "list.pageSize") as? Setting<Int>)
        #expect(pageSize.value == 25 && pageSize.groupPath == ["List"])
    }

    @Test func storedValuesApplyToManifestSettingsAndWrongOnesAreReported() throws {
        let store = InMemoryOverrideStore()
        _ = store.write(["maxItems": .set(try OverrideValue(json: "50")), "theme": .set(OverrideValue(string: "blue"))])
        let text = """
            {"name": "x", "settings": [
              {"key": "maxItems", "type": "integer", "default": 20, "range": [1, 100]},
              {"key": "theme", "type": "choice", "choices": ["light", "dark"], "default": "light"}]}
            """
        let registry = try AnyFeatureRegistry(manifest: try RegistryManifest.decode(Data(text.utf8)), store: store)
        #expect(registry.feature(forKey: "maxItems")?.currentValue.json == "50")
        #expect(registry.feature(forKey: "theme")?.currentValue == OverrideValue(string: "light"))
        #expect(registry.storedValueProblems.map(\.key) == ["theme"])
    }

    @Test func remoteKeysBindToTheGivenSourceOrAreKeptWithoutOne() throws {
        let text = """
            {"name": "x", "settings": [
              {"key": "maxItems", "type": "integer", "default": 20, "range": [1, 100], "remoteKey": "max_items"},
              {"key": "welcomeMessage", "type": "string", "default": "Hi", "remoteKey": "welcome_message"},
              {"key": "local", "type": "string", "default": "x"}]}
            """
        let manifest = try RegistryManifest.decode(Data(text.utf8))
        let source = FakeSettingSource()
        source.set("max_items", "30")
        source.set("welcome_message", "Welcome")
        let bound = try AnyFeatureRegistry(manifest: manifest, settingSource: source)
        #expect(bound.feature(forKey: "maxItems")?.currentValue.json == "30")
        #expect(bound.feature(forKey: "welcomeMessage")?.currentValue == OverrideValue(string: "Welcome"))
        #expect(bound.feature(forKey: "local")?.currentValue == OverrideValue(string: "x"))
        source.set("max_items", "500")
        let maxItems = try #require(bound.feature(forKey: "maxItems"))
        #expect(maxItems.currentValue.json == "20", "a remote value out of range is ignored")
        #expect(maxItems.explanation.chain.contains { $0.detail?.contains("must be 1…100") == true })
        #expect(bound.manifest().settings.map(\.remoteKey) == ["max_items", "welcome_message", nil])

        let unbound = try AnyFeatureRegistry(manifest: manifest)
        let welcome = try #require(unbound.feature(forKey: "welcomeMessage"))
        #expect(welcome.currentValue == OverrideValue(string: "Hi"))
        #expect(welcome.explanation.source == .static)
        #expect(welcome.explanation.chain.contains { $0.detail == #"no remote value for "welcome_message""# })
        #expect(
            unbound.manifest().settings.map(\.remoteKey) == ["max_items", "welcome_message", nil],
            "the remote keys survive without a provider")
    }

    @Test func settingsAndFlagsShareOneKeySpace() {
        let text =
            #"{"name":"x","flags":[{"key":"a"}],"groups":[{"key":"g","settings":[{"key":"a","type":"string","default":""}]}]}"#
        let error = #expect(throws: ManifestError.self) {
            try RegistryManifest.decode(Data(text.utf8), source: "m.json")
        }
        #expect(error?.path == "$.groups[0].settings[0].key")
        #expect(
            error?.message
                == "duplicate key 'a' (first at $.flags[0]); every flag and setting needs its own key")
    }

    @Test(
        arguments: [
            (
                #"{"type":"int","default":1}"#, "$.settings[0].type",
                #"unknown setting type "int" (expected one of: "boolean", "string", "integer", "double", "choice", "json")"#
            ),
            (#"{"type":3,"default":1}"#, "$.settings[0].type", "expected a string (a setting type: one of"),
            (#"{"default":1}"#, "$.settings[0].type", #"missing required field "type" (one of: "boolean""#),
            (#"{"type":"string"}"#, "$.settings[0].default", #"missing required field "default""#),
            (
                #"{"type":"string","default":3}"#, "$.settings[0].default",
                #"expected a string (the setting's type is "string"), found a number"#
            ),
            (#"{"type":"string","default":null}"#, "$.settings[0].default", "found null"),
            (#"{"type":"boolean","default":"yes"}"#, "$.settings[0].default", "expected a boolean (true or false)"),
            (
                #"{"type":"integer","default":2.5}"#, "$.settings[0].default",
                "expected a whole number (at most 2^53 in magnitude) (the setting's type is \"integer\"), found 2.5"
            ),
            (#"{"type":"integer","default":1e17}"#, "$.settings[0].default", "expected a whole number (at most 2^53"),
            (#"{"type":"double","default":"0.5"}"#, "$.settings[0].default", "expected a number"),
            (
                #"{"type":"string","default":"a","range":[1,2]}"#, "$.settings[0].range",
                #"a range needs a number setting (type "integer" or "double"); this setting's type is "string""#
            ),
            (
                #"{"type":"integer","default":1,"range":[1]}"#, "$.settings[0].range",
                "expected an array of two numbers: [lowest, highest], found 1 element"
            ),
            (
                #"{"type":"integer","default":1,"range":[1,"9"]}"#, "$.settings[0].range[1]",
                "expected a number, found a string"
            ),
            (#"{"type":"integer","default":1,"range":{}}"#, "$.settings[0].range", "expected an array of two numbers"),
            (
                #"{"type":"integer","default":1,"range":[100,1]}"#, "$.settings[0].range",
                "the lowest value 100 is above the highest 1"
            ),
            (
                #"{"type":"integer","default":1,"range":[0.5,10]}"#, "$.settings[0].range",
                "an integer setting's range needs whole numbers"
            ),
            (
                #"{"type":"integer","default":500,"range":[1,100]}"#, "$.settings[0].default",
                "500 is outside the range 1…100"
            ),
            (
                #"{"type":"double","default":1.5,"range":[0,1]}"#, "$.settings[0].default",
                "1.5 is outside the range 0…1"
            ),
            (#"{"type":"choice","choices":[],"default":"a"}"#, "$.settings[0].choices", "expected at least one choice"),
            (#"{"type":"choice","default":"a"}"#, "$.settings[0].choices", #"a "choice" setting needs "choices""#),
            (
                #"{"type":"string","choices":["a"],"default":"a"}"#, "$.settings[0].choices",
                #""choices" go with "type": "choice"; this setting's type is "string""#
            ),
            (
                #"{"type":"choice","choices":["a","b","a"],"default":"a"}"#, "$.settings[0].choices",
                #"the choice "a" is listed twice"#
            ),
            (
                #"{"type":"choice","choices":["a",1],"default":"a"}"#, "$.settings[0].choices[1]",
                "expected a string, found a number"
            ),
            (
                #"{"type":"choice","choices":["light","dark"],"default":"blue"}"#, "$.settings[0].default",
                #""blue" is not one of the choices ("light", "dark")"#
            ),
            (#"{"type":"json","default":{"a":1,"a":2}}"#, "$.settings[0].default.a", #"duplicate member "a""#),
            (#"{"type":"json","default":[1,]}"#, "$.settings[0].default", "trailing comma"),
            (
                #"{"type":"string","default":"a","remoteKey":""}"#, "$.settings[0].remoteKey",
                "expected a non-empty remote key"
            ),
            (
                #"{"type":"string","default":"a","defualt":"b"}"#, "$.settings[0].defualt",
                #"unknown field "defualt" (expected one of: key, label, description, type, default, range, choices, requiresRestart, remoteKey)"#
            ),
        ] as [(String, String, String)])
    func badSettingsNameThePathAndWhatWasExpected(setting: String, path: String, message: String) {
        let object = "{\"key\":\"a\"," + setting.dropFirst()
        let json = #"{"name":"x","settings":["# + object + "]}"
        let error = #expect(throws: ManifestError.self) {
            try RegistryManifest.decode(Data(json.utf8), source: "features.json")
        }
        #expect(error?.path == path, "\(json)")
        #expect(error?.message.contains(message) == true, "message: \(error?.message ?? "")")
    }

    @Test(
        arguments: [
            (#"{"name":"x","settings":{}}"#, "$.settings", "expected an array of settings, found an object"),
            (#"{"name":"x","settings":[3]}"#, "$.settings[0]", "expected an object (a setting), found a number"),
            (
                #"{"name":"x","settings":[{"type":"string","default":""}]}"#, "$.settings[0].key",
                #"missing required field "key""#
            ),
            (
                #"{"name":"x","settings":[{"key":"","type":"string","default":""}]}"#, "$.settings[0].key",
                "must not be empty"
            ),
            (
                #"{"name":"x","groups":[{"key":"g","settings":[{"key":"g.a","type":"double","default":"x"}]}]}"#,
                "$.groups[0].settings[0].default", "expected a number"
            ),
        ] as [(String, String, String)])
    func badSettingListsNameThePath(json: String, path: String, message: String) {
        let error = #expect(throws: ManifestError.self) { try RegistryManifest.decode(Data(json.utf8)) }
        #expect(error?.path == path)
        #expect(error?.message.contains(message) == true, "message: \(error?.message ?? "")")
    }

    @Test func theDecodablePathReadsSettingsAsTheReaderDoesAndRefusesTheSameShapes() throws {
        let text = """
            {"name": "x", "settings": [
              {"key": "a", "type": "integer", "default": 20, "range": [1, 100], "remoteKey": "k"},
              {"key": "b", "type": "choice", "choices": ["x", "y"], "default": "y", "requiresRestart": true},
              {"key": "c", "type": "json", "default": {"n": [1, true, null, "s", 0.5]}},
              {"key": "d", "type": "json", "default": null}]}
            """
        let ours = try RegistryManifest.decode(Data(text.utf8))
        let theirs = try JSONDecoder().decode(RegistryManifest.self, from: Data(text.utf8))
        #expect(ours == theirs)
        #expect(ours.settings[2].default["n"] == .array([.number(1), .bool(true), .null, .string("s"), .number(0.5)]))
        for bad in [
            #"{"name":"x","settings":[{"key":"a","type":"int","default":1}]}"#,
            #"{"name":"x","settings":[{"key":"a","type":"choice","default":"a"}]}"#,
            #"{"name":"x","settings":[{"key":"a","type":"string","choices":["a"],"default":"a"}]}"#,
            #"{"name":"x","settings":[{"key":"a","type":"integer","default":1,"range":[3,1]}]}"#,
            #"{"name":"x","settings":[{"key":"a","type":"integer","default":1,"range":[1,2,3]}]}"#,
            #"{"name":"x","settings":[{"key":"a","type":"integer","default":1,"rang":[1,2]}]}"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") {
                try JSONDecoder().decode(RegistryManifest.self, from: Data(bad.utf8))
            }
        }
        // What only `validate` checks is checked after `JSONDecoder` too.
        let outside = #"{"name":"x","settings":[{"key":"a","type":"integer","default":500,"range":[1,100]}]}"#
        let decoded = try JSONDecoder().decode(RegistryManifest.self, from: Data(outside.utf8))
        #expect(throws: ManifestError.self) { try decoded.validate(source: "m") }
    }

    @Test func aManifestBuiltInCodeWithAMismatchedDefaultIsAnErrorNotATrap() {
        let manifest = RegistryManifest(
            name: "x", settings: [RegistryManifest.Setting(key: "n", type: .integer, default: .string("twenty"))])
        let error = #expect(throws: ManifestError.self) { try AnyFeatureRegistry(manifest: manifest) }
        #expect(error?.message.contains("setting 'n': default: expected a whole number") == true)
    }

    @Test func settingsFollowTheFlagsOfTheirGroupAfterARoundTrip() throws {
        let typed = FeatureRegistry(TypedFeatures())
        let rebuilt = try AnyFeatureRegistry(manifest: typed.manifest())
        // TypedFeatures declares its flag first, so the order is the same; a flag declared after a setting
        // would move before it.
        #expect(rebuilt.rootFeatures.map(\.key) == typed.rootFeatures.map(\.key))
    }
}

@Suite struct JSONSettingValueTests {
    @Test func storedValuesAreCanonicalAndBooleansStayBooleans() throws {
        let value = JSONSettingValue.object([
            "b": .array([.number(1), .bool(true), .null]), "a": .string("x\"y"), "c": .number(0.5),
        ])
        #expect(value.overrideValue.json == #"{"a":"x\"y","b":[1,true,null],"c":0.5}"#)
        #expect(try JSONSettingValue.decode(stored: value.overrideValue) == value)
        #expect(
            JSONSettingValue(try OverrideValue(json: "[true, 1, 1.0, false, 0]"))
                == .array([.bool(true), .number(1), .number(1), .bool(false), .number(0)]))
        let decoded = try JSONDecoder().decode([JSONSettingValue].self, from: Data("[true, 1, 0, false, {}, []]".utf8))
        #expect(decoded == [.bool(true), .number(1), .number(0), .bool(false), .object([:]), .array([])])
        let encoded = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(JSONSettingValue.self, from: encoded) == value)
    }

    @Test func aJSONSettingParsesTextAndRefusesWhatIsNotJSON() throws {
        let setting = Setting(default: JSONSettingValue.object(["n": .number(1)]), key: "j")
        let registry = AnyFeatureRegistry()
        try registry.register(setting)
        #expect(try setting.parse(#" {"n": 2} "#).json == #"{"n":2}"#)
        #expect(throws: SettingValueError.self) { try setting.parse("{") }
        try setting.setOverrideValue(try OverrideValue(json: "[1,2]"))
        #expect(setting.value == .array([.number(1), .number(2)]))
        #expect(setting.displayText(setting.currentValue) == "[1,2]")
        #expect(JSONSettingValue.decode(remoteText: "not json") == nil)
        #expect(JSONSettingValue.decode(remoteText: #"{"a":"b"}"#) == .object(["a": .string("b")]))
    }
}
