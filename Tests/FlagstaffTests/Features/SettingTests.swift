import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Synchronization
import Testing

@testable import Flagstaff

@Suite struct SettingTests {
    @Test func settingsAreDiscoveredWithKeysTypesAndDefaults() throws {
        let features = FeatureRegistry(TypedFeatures())
        #expect(features.problems.isEmpty)
        #expect(
            features.allFeatures.map(\.key) == [
                "blueText", "cardColor", "maxItems", "ratio", "theme", "config", "compact", "layout.columns",
            ])
        #expect(features.cardColor.value == "#f05138")
        #expect(features.maxItems.value == 20)
        #expect(features.theme.value == .system)
        #expect(features.config.value == .standard)
        #expect(features.cardColor.settingType == .string)
        #expect(features.maxItems.settingType == .integer)
        #expect(features.ratio.settingType == .double)
        #expect(features.theme.settingType == .choice(["light", "dark", "system"]))
        #expect(features.config.settingType == .json)
        #expect(features.compact.settingType == .boolean)
        #expect(
            features.maxItems.valueRange
                == ValueRange(lower: try OverrideValue(json: "1"), upper: try OverrideValue(json: "100")))
        #expect(features.layout.columns.groupPath == ["Layout"])
        #expect(features.feature(forKey: "maxItems") === features.maxItems)
        #expect(features.flag(forKey: "maxItems") == nil)
    }

    @Test func overridesAreStoredAsPlainJSONAndRemovedWithNil() async throws {
        let store = InMemoryOverrideStore()
        let features = FeatureRegistry(TypedFeatures(), store: store)
        features.cardColor.overriddenValue = "#000000"
        features.maxItems.overriddenValue = 50
        features.ratio.overriddenValue = 0.25
        features.theme.overriddenValue = .dark
        features.compact.overriddenValue = true
        var config = AppFeatureConfig.standard
        config.maxUploadSize = 1
        features.config.overriddenValue = config
        try await features.flush()
        #expect(
            store.load().mapValues(\.json) == [
                "cardColor": ##""#000000""##, "maxItems": "50", "ratio": "0.25", "theme": #""dark""#,
                "compact": #""on""#,
                "config": ##"{"isNewFeatureEnabled":false,"maxUploadSize":1,"themeColors":{"primary":"#f05138"}}"##,
            ])
        #expect(features.cardColor.value == "#000000" && features.cardColor.source == .override)
        #expect(features.config.value.maxUploadSize == 1)
        features.maxItems.overriddenValue = nil
        try await features.flush()
        #expect(store.load()["maxItems"] == nil)
        #expect(features.maxItems.value == 20 && !features.maxItems.isOverridden)
        // A second registry on the same store reads the same values.
        let other = FeatureRegistry(TypedFeatures(), store: store)
        #expect(other.theme.value == .dark && other.config.value == config && other.compact.value)
    }

    @Test func invalidValuesAreRefusedAndNothingChanges() async throws {
        let store = InMemoryOverrideStore()
        let features = FeatureRegistry(TypedFeatures(), store: store)
        features.maxItems.overriddenValue = 30
        features.maxItems.overriddenValue = 500
        #expect(features.maxItems.value == 30)
        try await features.flush()
        #expect(store.load()["maxItems"]?.json == "30")
        #expect(features.lastRefusedChange == RefusedChange(key: "maxItems", reason: "must be 1…100"))
        #expect(throws: SettingValueError("must be 1…100")) { try features.maxItems.setOverriddenValue(0) }
        #expect(throws: SettingValueError("must be one of light, dark, system")) {
            try features.theme.setOverrideValue(OverrideValue(string: "purple"))
        }
        #expect(throws: SettingValueError("must be a finite number")) {
            try features.ratio.setOverriddenValue(.infinity)
        }
        let invalid = #expect(throws: InvalidOverrideValue.self) {
            try features.setOverrideValues(["blueText": .set(.on), "maxItems": .set(try OverrideValue(json: "101"))])
        }
        #expect(invalid?.description == #"invalid value 101 for "maxItems": must be 1…100"#)
        #expect(!features.blueText.isOverridden, "all or nothing")
        #expect(store.load().count == 1)
    }

    @Test func parsingTextNamesWhatWasExpected() throws {
        let features = FeatureRegistry(TypedFeatures())
        #expect(try features.maxItems.parse(" 42 ").json == "42")
        #expect(throws: SettingValueError("must be a whole number")) { try features.maxItems.parse("lots") }
        #expect(throws: SettingValueError("must be 1…100")) { try features.maxItems.parse("1000") }
        #expect(try features.ratio.parse("1e-3").json == "0.001")
        #expect(throws: SettingValueError("must be a number")) { try features.ratio.parse("nan") }
        #expect(try features.theme.parse("light") == OverrideValue(string: "light"))
        #expect(try features.cardColor.parse("on") == OverrideValue(string: "on"), "text is text")
        #expect(try features.blueText.parse("yes") == .on)
        #expect(try features.compact.parse("off") == .off)
        let json = #"{"isNewFeatureEnabled":true,"maxUploadSize":5,"themeColors":{}}"#
        #expect(try features.config.parse(json).json == json)
        #expect(throws: SettingValueError(#"at $.maxUploadSize: expected a whole number"#)) {
            try features.config.parse(#"{"isNewFeatureEnabled":true,"maxUploadSize":"5","themeColors":{}}"#)
        }
        #expect(throws: SettingValueError(#"at $: missing "themeColors""#)) {
            try features.config.parse(#"{"isNewFeatureEnabled":true,"maxUploadSize":5}"#)
        }
        #expect(throws: SettingValueError.self) { try features.config.parse("{nope") }
        #expect(features.theme.displayText(OverrideValue(string: "dark")) == "dark")
        #expect(features.cardColor.displayText(OverrideValue(string: "a\"b")) == "a\"b")
        #expect(features.blueText.displayText(.on) == "on")
    }

    @Test func aWholeNumberTooLargeForItsSettingIsReportedAsTheFileHoldsIt() throws {
        let file = temporaryDirectory().appendingPathComponent("overrides.json")
        try Data(#"{"version":1,"overrides":{"maxItems":123456789012345678901234567890}}"#.utf8).write(to: file)
        let features = FeatureRegistry(
            TypedFeatures(), store: try FileOverrideStore(url: file), options: RegistryOptions(storeWatchInterval: nil))
        #expect(
            features.storedValueProblems.map(\.description) == [
                #"stored value 123456789012345678901234567890 for "maxItems" ignored: expected a whole number from "#
                    + #"-9223372036854775808 to 9223372036854775807, found 123456789012345678901234567890, which is "#
                    + "too large"
            ])
        let small = #expect(throws: SettingValueError.self) { try Int.decode(stored: OverrideValue(json: "-1e30")) }
        #expect(small?.description.hasSuffix("which is too small") == true, "\(String(describing: small))")
        #expect(try Int.decode(stored: OverrideValue(json: "9223372036854775807")) == Int.max)
    }

    @Test func storedValuesOfTheWrongTypeAreIgnoredReportedAndKept() async throws {
        let store = InMemoryOverrideStore([
            "maxItems": try OverrideValue(json: #""lots""#), "blueText": try OverrideValue(json: "3"),
            "theme": OverrideValue(string: "purple"), "ratio": try OverrideValue(json: "0.75"),
        ])
        let features = FeatureRegistry(TypedFeatures(), store: store)
        #expect(features.maxItems.value == 20 && !features.maxItems.isOverridden)
        #expect(!features.blueText.enabled && !features.blueText.isOverridden)
        #expect(features.theme.value == .system)
        #expect(features.ratio.value == 0.75)
        #expect(
            features.storedValueProblems.map(\.description) == [
                #"stored value 3 for "blueText" ignored: expected "on" or "off", found 3"#,
                #"stored value "lots" for "maxItems" ignored: expected a whole number, found "lots""#,
                #"stored value "purple" for "theme" ignored: must be one of light, dark, system"#,
            ])
        features.cardColor.overriddenValue = "#111111"
        try await features.flush()
        #expect(store.load()["maxItems"]?.json == #""lots""#, "left in the store")
        // Fixing the entry clears the problem.
        features.maxItems.overriddenValue = 7
        #expect(features.storedValueProblems.map(\.key) == ["blueText", "theme"])
    }

    @Test func storeFilesWrittenBeforeSettingsLoadUnchanged() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.json")
        let old = "{\n  \"version\": 1,\n  \"overrides\": {\n    \"blueText\": \"on\",\n    \"gone\": \"off\"\n  }\n}\n"
        try Data(old.utf8).write(to: url)
        let features = FeatureRegistry(
            TypedFeatures(), store: try FileOverrideStore(url: url), options: RegistryOptions(storeWatchInterval: nil))
        #expect(features.blueText.enabled && features.storedValueProblems.isEmpty)
        features.maxItems.overriddenValue = 42
        features.theme.overriddenValue = .light
        try await features.flush()
        let written = try String(contentsOf: url, encoding: .utf8)
        #expect(
            written
                == "{\n  \"version\": 1,\n  \"overrides\": {\n    \"blueText\": \"on\",\n    \"gone\": \"off\",\n"
                + "    \"maxItems\": 42,\n    \"theme\": \"light\"\n  }\n}\n")
    }

    @Test func changesAreNotifiedAndRestartsTracked() throws {
        let features = FeatureRegistry(TypedFeatures())
        let seen = AnnotatedMutex<[Set<String>]>([])
        let subscription = features.onChange { change in seen.withLock { $0.append(change.keys) } }
        defer { subscription.cancel() }
        features.theme.overriddenValue = .dark
        features.maxItems.overriddenValue = 5
        #expect(seen.withLock { $0 } == [["theme"], ["maxItems"]])
        #expect(features.theme.isPendingRestart && features.theme.launchValue == .system)
        #expect(features.featuresRequiringRestart.map(\.key) == ["theme"])
        #expect(features.theme.launchStoredValue == OverrideValue(string: "system"))
        features.theme.overriddenValue = .system
        #expect(!features.theme.isPendingRestart)
        features.theme.overriddenValue = .light
        features.recordLaunchValues()
        #expect(!features.theme.isPendingRestart && features.theme.launchValue == .light)
    }

    @Test func remoteValuesAreDecodedOncePerChangeAndExplained() throws {
        let source = FakeSettingSource()
        let features = FeatureRegistry(TypedFeatures())
        let bound = Setting(
            default: 10, range: 1...100, key: "remote.items",
            remote: SettingRemoteBinding(source: source, key: "max_items"))
        try features.register(bound)
        #expect(bound.value == 10 && bound.source == .static)
        source.set("max_items", "12")
        for _ in 0..<1000 { #expect(bound.value == 12) }
        #expect(source.lookups.load(ordering: .relaxed) == 2, "once for the empty generation, once after the change")
        #expect(bound.source == .remote(provider: "Fake", fetchedAt: nil))
        source.set("max_items", "1000")
        #expect(bound.value == 10, "out of range: ignored")
        let chain = bound.explanation.chain
        #expect(chain.map(\.source.displayName) == ["override", "remote", "default"])
        #expect(chain[1].value == nil && chain[1].detail == #"remote value "1000" ignored: must be 1…100"#)
        bound.overriddenValue = 3
        #expect(bound.value == 3 && bound.explanation.source == .override)
        #expect(bound.valueWithoutOverride.json == "10")
    }

    @Test func remoteBoundValuesFollowOverridesRebindingAndRemoval() throws {
        let first = FakeSettingSource()
        let second = FakeSettingSource()
        let features = FeatureRegistry(TypedFeatures())
        let items = Setting(
            default: 10, range: 1...100, key: "bound.items", remote: SettingRemoteBinding(source: first, key: "n"))
        let theme = Setting(
            default: Theme.system, key: "bound.theme", remote: SettingRemoteBinding(source: first, key: "t"))
        try features.register([items, theme])
        first.set("n", "40")
        first.set("t", "dark")
        #expect(items.value == 40 && theme.value == .dark)
        items.overriddenValue = 5
        #expect(items.value == 5, "an override wins over the remote value")
        items.overriddenValue = nil
        #expect(items.value == 40)
        first.set("n", nil)
        #expect(items.value == 10, "no remote value: the default")
        first.set("n", "41")
        #expect(items.value == 41)
        items.bind(to: SettingRemoteBinding(source: second, key: "n"))
        #expect(items.value == 10)
        second.set("n", "77")
        #expect(items.value == 77)
        first.set("n", "42")
        #expect(items.value == 77, "the old source no longer counts")
    }

    @Test func withSettingIsTaskLocalAndRestored() async throws {
        let features = FeatureRegistry(TypedFeatures())
        features.cardColor.overriddenValue = "#222222"
        withSetting(features.cardColor, value: "#000000") {
            #expect(features.cardColor.value == "#000000")
            #expect(features.cardColor.source == .testOverride)
            #expect(features.cardColor.currentValue == OverrideValue(string: "#000000"))
        }
        #expect(features.cardColor.value == "#222222")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    await withSetting(features.maxItems, value: index) {
                        await Task.yield()
                        #expect(features.maxItems.value == index)
                    }
                }
            }
        }
        #expect(features.maxItems.value == 20)
    }

    @Test func searchScopesTreatOnlyBooleansAsOnOrOff() {
        let features = FeatureRegistry(TypedFeatures())
        features.compact.overriddenValue = true
        #expect(features.search("", scope: .enabled).map(\.feature.key) == ["compact"])
        #expect(features.search("", scope: .disabled).map(\.feature.key) == ["blueText"])
        features.maxItems.overriddenValue = 2
        #expect(features.search("", scope: .overridden).map(\.feature.key) == ["maxItems", "compact"])
    }

    @Test func settingsAndFlagsShareTheDuplicateKeyCheck() {
        struct Clash: FeatureGroup {
            let maxItems = Setting(default: 1)
            let other = Feature(key: "maxItems")
        }
        #expect(FeatureRegistry(Clash(), options: RegistryOptions(assertOnProblems: false)).problems.count == 1)
    }
}

@Suite struct SettingConcurrencyTests {
    @Test func remoteValuesChangingUnderReadersAreNeverTorn() async throws {
        let source = FakeSettingSource()
        let features = FeatureRegistry(TypedFeatures())
        let items = Setting(default: 1, key: "remote.items", remote: SettingRemoteBinding(source: source, key: "n"))
        let ratio = Setting(default: 0.5, key: "remote.ratio", remote: SettingRemoteBinding(source: source, key: "r"))
        try features.register([items, ratio])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 1...300 {
                    source.set("n", "\(round * 1_000_001)")
                    source.set("r", "\(Double(round) + 0.25)")
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<5_000 {
                        let value = items.value
                        #expect(value == 1 || value % 1_000_001 == 0)
                        let fraction = ratio.value
                        #expect(fraction == 0.5 || fraction - fraction.rounded(.down) == 0.25)
                    }
                }
            }
        }
        #expect(items.value == 300_000_300 && ratio.value == 300.25)
    }

    @Test func readersSeeWholeValuesWhileWritersChangeThem() async throws {
        let features = FeatureRegistry(TypedFeatures())
        let configs = (0..<4).map { index in
            AppFeatureConfig(
                isNewFeatureEnabled: index.isMultiple(of: 2), maxUploadSize: index, themeColors: ["i": "\(index)"])
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0..<200 {
                    features.config.overriddenValue = configs[round % configs.count]
                    features.cardColor.overriddenValue = "#\(round)"
                    features.maxItems.overriddenValue = round.isMultiple(of: 7) ? nil : round % 100 + 1
                    features.theme.overriddenValue = Theme.allCases[round % 3]
                    features.ratio.overriddenValue = round.isMultiple(of: 5) ? nil : Double(round) / 4
                }
            }
            for _ in 0..<3 {
                group.addTask {
                    for _ in 0..<5_000 {
                        let config = features.config.value
                        #expect(config == .standard || configs.contains(config))
                        #expect(features.cardColor.value.hasPrefix("#"))
                        #expect((1...100).contains(features.maxItems.value))
                        #expect(Theme.allCases.contains(features.theme.value))
                        let ratio = features.ratio.value
                        #expect(ratio == 0.5 || ratio == (ratio * 4).rounded() / 4)
                        _ = features.theme.explanation
                    }
                }
            }
        }
    }
}
