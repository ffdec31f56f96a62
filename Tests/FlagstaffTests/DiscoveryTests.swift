import Flagstaff
import Testing

@Suite struct DiscoveryTests {
    let features = FeatureRegistry(AppFeatures())

    @Test func keysFollowGroupPathAndPropertyNames() {
        #expect(features.blueText.key == "blueText")
        #expect(features.list.infiniteScroll.key == "list.infiniteScroll")
        #expect(features.deep.inner.deepFlag.key == "deep.inner.deepFlag")
        #expect(features.legacyKey.key == "LEGACY_FLAG")
        #expect(features.$darkMode.key == "darkMode")
    }

    @Test func declarationOrderWithSuperclassFirst() {
        #expect(
            features.allFeatures.map(\.key) == [
                "inheritedFlag", "blueText", "debugLogging", "useTabBarNav",
                "list.infiniteScroll", "list.compactRows", "LEGACY_FLAG", "tuesdayExperiment", "internalTools",
                "newURLFormat", "deep.inner.deepFlag", "deep.outerFlag", "darkMode",
            ])
    }

    @Test func groupsAndPaths() {
        #expect(features.groups.map(\.key) == ["list", "deep"])
        #expect(features.groups.map(\.label) == ["List", "Deep"])
        #expect(features.group(forKey: "deep")?.subgroups.map(\.keyPath) == [["deep", "inner"]])
        #expect(features.deep.inner.deepFlag.groupPath == ["Deep", "Inner"])
        #expect(features.deep.inner.deepFlag.groupKeyPath == ["deep", "inner"])
        #expect(features.rootFeatures.count == 9)
        #expect(features.group(forKey: "deep")?.allFeatures.map(\.key) == ["deep.outerFlag", "deep.inner.deepFlag"])
    }

    @Test func labelsAreHumanisedUnlessGiven() {
        #expect(features.newURLFormat.label == "New URL Format")
        #expect(features.list.compactRows.label == "Dense rows")
        #expect(features.list.infiniteScroll.description == "Load more rows at the bottom")
        #expect(features.$darkMode.description == "One-line flag")
    }

    @Test func propertyWrapperHonoursInitialValueAsDefault() {
        #expect(features.darkMode == true)
        features.$darkMode.override = .disabled
        #expect(features.darkMode == false)
    }

    @Test func kinds() {
        #expect(features.blueText.kind == .static)
        #expect(features.tuesdayExperiment.kind == .dynamic)
        #expect(features.internalTools.kind == .buildTarget)
    }

    @Test func lookupByKey() {
        #expect(features.feature(forKey: "list.infiniteScroll") === features.list.infiniteScroll)
        #expect(features.feature(forKey: "LEGACY_FLAG") === features.legacyKey)
        #expect(features.feature(forKey: "infiniteScroll") == nil)
        #expect(features.problems.isEmpty)
        #expect(features.name == "App Features")
    }

    @Test func sameNameInTwoGroupsDoesNotShareState() {
        let registry = FeatureRegistry(NamespacedFeatures())
        #expect(registry.settings.darkMode.key == "settings.darkMode")
        #expect(registry.profile.darkMode.key == "profile.darkMode")
        registry.settings.darkMode.override = .enabled
        #expect(registry.settings.darkMode.enabled)
        #expect(!registry.profile.darkMode.enabled)
    }

    @Test func duplicateKeysAreReportedWithBothDeclarations() throws {
        let registry = FeatureRegistry(DuplicateFeatures(), options: RegistryOptions(assertOnProblems: false))
        #expect(
            registry.problems == [
                .duplicateKey(
                    "shared", firstDeclaration: "DuplicateFeatures.first",
                    secondDeclaration: "DuplicateFeatures.list.second")
            ])
        let error = #expect(throws: RegistryError.self) { try registry.validate() }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("DuplicateFeatures.first") && message.contains("DuplicateFeatures.list.second"))
    }
}
