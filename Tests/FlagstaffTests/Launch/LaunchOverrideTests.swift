import FlagstaffTestSupport
import FlagstaffTesting
import Foundation
import Testing

@testable import Flagstaff

@Suite struct LaunchOverrideTests {
    private func registry(
        environment: [String: String] = [:], arguments: [String] = [],
        store: InMemoryOverrideStore = InMemoryOverrideStore()
    ) -> FeatureRegistry<TypedFeatures> {
        FeatureRegistry(
            TypedFeatures(), store: store,
            options: RegistryOptions(
                storeWatchInterval: nil,
                launchOverrides: LaunchOverrides(environment: environment, arguments: arguments)))
    }

    @Test func pairsAndArgumentsAreRead() {
        let launch = LaunchOverrides(
            environment: ["FLAGSTAFF_OVERRIDES": #"blueText=on, config={"a":1,"b":[2,3]},cardColor=#0,0"#],
            arguments: ["--other", "-flagstaff", "maxItems=7", "-flagstaff", "blueText=off", "-flagstaffX", "x"])
        #expect(
            launch.values == [
                "blueText": .text("off"), "config": .text(#"{"a":1,"b":[2,3]}"#), "cardColor": .text("#0,0"),
                "maxItems": .text("7"),
            ])
        #expect(launch.problems.isEmpty)
        #expect(launch.origin == "FLAGSTAFF_OVERRIDES and -flagstaff arguments")
    }

    /// With the variable and arguments both given, a message about one key names where that key came from.
    @Test func aProblemNamesWhereItsKeyCameFrom() {
        let features = registry(
            environment: ["FLAGSTAFF_OVERRIDES": "maxItems=500,blueTxt=on"], arguments: ["-flagstaff", "theme=sepia"])
        let problems = features.launchOverrideProblems
        #expect(
            problems.contains { $0.hasPrefix(#""maxItems": must be 1…100 (from FLAGSTAFF_OVERRIDES)"#) }, "\(problems)")
        #expect(
            problems.contains { $0.hasPrefix(#""theme": "#) && $0.hasSuffix("(from -flagstaff arguments); ignored") })
        #expect(
            problems.contains { $0.hasPrefix(#""blueTxt""#) && $0.hasSuffix("(from FLAGSTAFF_OVERRIDES); ignored") })
        #expect(!problems.contains { $0.contains(" and -flagstaff") }, "\(problems)")
    }

    @Test func aLeadingByteOrderMarkIsSkipped() throws {
        let pairs = LaunchOverrides(environment: ["FLAGSTAFF_OVERRIDES": "\u{FEFF}blueText=on"], arguments: [])
        #expect(pairs.values == ["blueText": .text("on")])
        let json = LaunchOverrides(
            environment: ["FLAGSTAFF_OVERRIDES": "\u{FEFF} \n" + #"{"version":1,"overrides":{"maxItems":5}}"#],
            arguments: [])
        #expect(json.values == ["maxItems": .json(try OverrideValue(json: "5"))])
        #expect(pairs.problems.isEmpty && json.problems.isEmpty)
        let markOnly = LaunchOverrides(environment: ["FLAGSTAFF_OVERRIDES": "\u{FEFF}"], arguments: [])
        #expect(markOnly.values.isEmpty && markOnly.problems.isEmpty && markOnly.origin == "launch")
    }

    @Test func exportJSONIsRead() throws {
        let launch = LaunchOverrides(
            environment: ["FLAGSTAFF_OVERRIDES": #"{"version":1,"overrides":{"blueText":"on","maxItems":5}}"#],
            arguments: [])
        #expect(launch.values == ["blueText": .json(.on), "maxItems": .json(try OverrideValue(json: "5"))])
        let broken = LaunchOverrides(environment: ["FLAGSTAFF_OVERRIDES": #"{"version":1"#], arguments: [])
        #expect(broken.values.isEmpty && broken.problems.count == 1)
        #expect(broken.problems.first?.contains("FLAGSTAFF_OVERRIDES") == true)
    }

    @Test func launchValuesWinOverStoredOverridesAndAreNeverWritten() async throws {
        let store = InMemoryOverrideStore(["blueText": .off, "maxItems": try OverrideValue(json: "9")])
        let features = registry(
            environment: ["FLAGSTAFF_OVERRIDES": "blueText=on,maxItems=50,theme=dark"], arguments: [], store: store)
        #expect(features.blueText.enabled)
        #expect(features.blueText.resolution.source == .launch)
        #expect(features.blueText.override == .disabled, "the stored override stays beneath")
        #expect(features.maxItems.value == 50 && features.maxItems.source == .launch)
        #expect(features.maxItems.overriddenValue == 9)
        #expect(features.theme.value == .dark)
        #expect(features.theme.launchOverrideValue == OverrideValue(string: "dark"))
        #expect(
            features.maxItems.explanation.chain.map(\.source.displayName) == ["launch", "override", "default"])
        #expect(features.maxItems.explanation.chain.first?.detail == "FLAGSTAFF_OVERRIDES")
        features.maxItems.overriddenValue = 11
        try await features.flush()
        #expect(features.maxItems.value == 50, "QA changes go to the store; the launch value still decides")
        #expect(store.load()["maxItems"]?.json == "11")
        #expect(store.load()["theme"] == nil && store.load()["blueText"] == .off)
    }

    @Test func testOverridesWinOverLaunchValues() {
        let features = registry(arguments: ["-flagstaff", "blueText=on", "-flagstaff", "cardColor=#123456"])
        withFeature(features.blueText).disabled {
            #expect(!features.blueText.enabled)
        }
        withSetting(features.cardColor, value: "#000000") {
            #expect(features.cardColor.value == "#000000")
        }
        #expect(features.blueText.enabled && features.cardColor.value == "#123456")
    }

    @Test func invalidValuesAndUnknownKeysAreReportedAndIgnored() {
        let features = registry(
            environment: ["FLAGSTAFF_OVERRIDES": "broken,maxItems=500,theme=purple,blueText=maybe,nope=1"])
        #expect(features.maxItems.value == 20 && features.theme.value == .system && !features.blueText.enabled)
        #expect(
            features.launchOverrideProblems == [
                #"FLAGSTAFF_OVERRIDES: expected KEY=VALUE, found "broken""#,
                #""blueText": must be on or off (from FLAGSTAFF_OVERRIDES); ignored"#,
                #""maxItems": must be 1…100 (from FLAGSTAFF_OVERRIDES); ignored"#,
                #""theme": must be one of light, dark, system (from FLAGSTAFF_OVERRIDES); ignored"#,
                #""nope": no flag or setting of \#(features.name) has this key (from FLAGSTAFF_OVERRIDES); ignored"#,
            ])
    }

    /// A typo in a UI test's launch overrides names the key that was meant (issue 28, item 3).
    @Test func unknownKeysNameTheNearestKey() {
        let features = registry(
            environment: ["FLAGSTAFF_OVERRIDES": "blueTxt=on,MAXITEMS=5,zzzzzzzzzz=1"],
            arguments: ["-flagstaff", "cardColour=#000000"])
        // Each names where its key came from, not both places.
        let (variable, arguments) = ("FLAGSTAFF_OVERRIDES", "-flagstaff arguments")
        #expect(
            features.launchOverrideProblems == [
                #""MAXITEMS": no flag or setting of \#(features.name) has this key; did you mean "maxItems"? (from \#(variable)); ignored"#,
                #""blueTxt": no flag or setting of \#(features.name) has this key; did you mean "blueText"? (from \#(variable)); ignored"#,
                #""cardColour": no flag or setting of \#(features.name) has this key; did you mean "cardColor"? (from \#(arguments)); ignored"#,
                #""zzzzzzzzzz": no flag or setting of \#(features.name) has this key (from \#(variable)); ignored"#,
            ])
        #expect(!features.blueText.enabled && features.maxItems.value == 20)
    }

    @Test func theNearestKeyIsTheSameLettersThenTheLastComponentThenTheClosest() {
        let keys = ["blueText", "list.infiniteScroll", "list.items", "grid.items", "maxItems"]
        #expect(KeySuggestion.nearest(to: "BLUETEXT", among: keys) == "blueText")
        #expect(KeySuggestion.nearest(to: "infiniteScroll", among: keys) == "list.infiniteScroll")
        #expect(KeySuggestion.nearest(to: "items", among: keys) == nil, "two keys end in .items, none is close")
        #expect(KeySuggestion.nearest(to: "blueTxet", among: keys) == "blueText")
        #expect(KeySuggestion.nearest(to: "maxItem", among: keys) == "maxItems")
        #expect(KeySuggestion.nearest(to: "checkout", among: keys) == nil)
        #expect(KeySuggestion.nearest(to: "", among: keys) == nil)
        #expect(KeySuggestion.nearest(to: String(repeating: "b", count: 10_000), among: keys) == nil)
    }

    @Test func membersRegisteredLaterGetTheirLaunchValues() throws {
        let features = registry(arguments: ["-flagstaff", "late.flag=on", "-flagstaff", "late.items=3"])
        #expect(features.launchOverrideProblems.count == 2, "unknown at creation")
        let flag = Feature(key: "late.flag")
        let items = Setting(default: 1, key: "late.items")
        try features.register([flag, items])
        #expect(flag.enabled && items.value == 3)
        #expect(features.launchOverrideProblems.isEmpty, "their keys are known now")
    }

    @Test func aFlagWithALaunchValueIsNotPendingARestartFromIt() {
        let features = registry(arguments: ["-flagstaff", "theme=light"])
        #expect(features.theme.launchValue == .light && !features.theme.isPendingRestart)
    }
}
