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

    @Test func groupOptionsNameAGroupAndTheRootsLabelNamesTheRegistry() {
        let registry = FeatureRegistry(OptionsFeatures())
        #expect(registry.name == "Shop")
        #expect(registry.checkout.expressPay.key == "pay.expressPay")
        let group = registry.group(forKey: "pay")
        #expect(group?.label == "Paying")
        #expect(group?.description == "Paying for an order")
        #expect(registry.checkout.expressPay.groupPath == ["Paying"])
        #expect(FeatureRegistry(OptionsFeatures(), options: RegistryOptions(name: "Given")).name == "Given")
    }

    @Test func aFinalClassDeclaresLikeAStructAndAClassHierarchyIsDiscoveredSuperclassFirst() {
        let registry = FeatureRegistry(DerivedDeclarations())
        #expect(
            registry.allFeatures.map(\.key) == ["inheritedFlag", "ownFlag", "list.infiniteScroll", "list.compactRows"])
        #expect(registry.allFeatures.first?.declarationPath == "DerivedDeclarations.inheritedFlag")
        #expect(FeatureRegistry(FinalClassDeclarations()).allFeatures.map(\.key) == ["one", "nested.two"])
    }

    @Test func theSameFlagDeclaredTwiceIsAProblemNamingBothDeclarations() {
        let registry = FeatureRegistry(TwiceDeclared(), options: RegistryOptions(assertOnProblems: false))
        #expect(
            registry.problems == [
                .sameFeatureTwice(firstDeclaration: "TwiceDeclared.first", secondDeclaration: "TwiceDeclared.again")
            ])
        #expect(registry.allFeatures.map(\.key) == ["first"])
    }

    /// Members are objects: two registries over one declarations instance would share their state (an override
    /// in one shows in the other). The second is refused, with a problem; once the first is gone, a new one may
    /// take the instance.
    @Test func aSecondRegistryOverTheSameDeclarationsInstanceIsRefused() {
        let declarations = ListFeatures()
        var first: FeatureRegistry<ListFeatures>? = FeatureRegistry(
            declarations, options: RegistryOptions(name: "First"))
        let second = FeatureRegistry(declarations, options: RegistryOptions(name: "Second", assertOnProblems: false))
        #expect(second.allFeatures.isEmpty)
        #expect(
            second.problems.map(\.description).first?.hasPrefix(
                "ListFeatures.infiniteScroll already belongs to the registry 'First'") == true,
            "\(second.problems)")
        #expect(first?.allFeatures.count == 2 && first?.problems.isEmpty == true)
        #expect(declarations.infiniteScroll.registry === first)
        first = nil
        let third = FeatureRegistry(declarations, options: RegistryOptions(name: "Third"))
        #expect(third.problems.isEmpty && third.allFeatures.count == 2)
        #expect(declarations.infiniteScroll.registry === third)
    }

    @Test func aMemberNamedLikeARegistryPropertyIsReachedThroughTheDeclarations() {
        let registry = FeatureRegistry(ClashingNames())
        #expect(registry.name == "Clashing Names")
        #expect(registry.declarations.name.key == "name")
        #expect(registry.feature(forKey: "store") === registry.declarations.store)
    }
}

/// Declarations named by `groupOptions`: the root's label names the registry, a group's key, label and description.
private struct OptionsFeatures: FeatureGroup {
    let groupOptions = GroupOptions(label: "Shop")
    let checkout = PayFeatures()
}

private struct PayFeatures: FeatureGroup {
    var groupOptions: GroupOptions { GroupOptions(key: "pay", label: "Paying", description: "Paying for an order") }
    let expressPay = Feature()
}

/// A class hierarchy of declarations: supported, though it needs `@unchecked Sendable` (structs do not).
private class BaseDeclarations: FeatureGroup, @unchecked Sendable {
    // @unchecked: only immutable `let` flags, which are thread-safe.
    let inheritedFlag = Feature()
}

private final class DerivedDeclarations: BaseDeclarations, @unchecked Sendable {
    // @unchecked: only immutable `let` flags and groups, which are thread-safe.
    let ownFlag = Feature()
    let list = ListFeatures()
}

/// A final class of `let` members is `Sendable` with no annotation.
private final class FinalClassDeclarations: FeatureGroup {
    let one = Feature()
    let nested = NestedInFinalClass()
}

private struct NestedInFinalClass: FeatureGroup {
    let two = Feature()
}

/// One flag object held by two properties.
private struct TwiceDeclared: FeatureGroup {
    let first: Feature
    let again: Feature

    init() {
        let flag = Feature()
        first = flag
        again = flag
    }
}

/// Members named like properties of the registry.
private struct ClashingNames: FeatureGroup {
    let name = Feature()
    let store = Feature()
}
