import Flagstaff
import FlagstaffTestSupport
import Foundation

final class ListFeatures: FeatureGroup, @unchecked Sendable {
    let infiniteScroll = Feature(description: "Load more rows at the bottom")
    let compactRows = Feature(label: "Dense rows", defaultState: true)
}

final class DeepFeatures: FeatureGroup, @unchecked Sendable {
    let inner = InnerFeatures()
    let outerFlag = Feature()
}

final class InnerFeatures: FeatureGroup, @unchecked Sendable {
    let deepFlag = Feature(description: "Nested two levels down")
}

class BaseFeatures: FeatureRegistry, @unchecked Sendable {
    let inheritedFlag = Feature(description: "Declared in the superclass")
}

final class AppFeatures: BaseFeatures, @unchecked Sendable {
    let blueText = Feature()
    let debugLogging = Feature(defaultState: true)
    let useTabBarNav = Feature(requiresRestart: true)
    let list = ListFeatures()
    let legacyKey = Feature(key: "LEGACY_FLAG")
    let tuesdayExperiment = DynamicFeature { _ in Calendar.current.component(.weekday, from: Date()) == 3 }
    let internalTools = Feature(enabledIn: [.debug, .internal])
    let newURLFormat = Feature()
    let deep = DeepFeatures()
    @FeatureFlag(description: "One-line flag") var darkMode = true
}

/// Two groups each declaring `darkMode`: keys are namespaced, so they do not collide.
final class SettingsGroup: FeatureGroup, @unchecked Sendable { let darkMode = Feature() }
final class ProfileGroup: FeatureGroup, @unchecked Sendable { let darkMode = Feature() }
final class NamespacedFeatures: FeatureRegistry, @unchecked Sendable {
    let settings = SettingsGroup()
    let profile = ProfileGroup()
}

/// Two flags with the same explicit key.
final class DuplicateFeatures: FeatureRegistry, @unchecked Sendable {
    let first = Feature(key: "shared")
    let list = DuplicateGroup()
}
final class DuplicateGroup: FeatureGroup, @unchecked Sendable { let second = Feature(key: "shared") }

func temporaryDirectory() -> URL {
    TestDirectory.make("flagstaff-tests")
}
