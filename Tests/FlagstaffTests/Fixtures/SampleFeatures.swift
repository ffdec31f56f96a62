import Flagstaff
import FlagstaffTestSupport
import Foundation

struct ListFeatures: FeatureGroup {
    let infiniteScroll = Feature(description: "Load more rows at the bottom")
    let compactRows = Feature(label: "Dense rows", default: true)
}

struct DeepFeatures: FeatureGroup {
    let inner = InnerFeatures()
    let outerFlag = Feature()
}

struct InnerFeatures: FeatureGroup {
    let deepFlag = Feature(description: "Nested two levels down")
}

struct AppFeatures: FeatureGroup {
    let inheritedFlag = Feature(description: "Declared first")
    let blueText = Feature()
    let debugLogging = Feature(default: true)
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
struct SettingsGroup: FeatureGroup { let darkMode = Feature() }
struct ProfileGroup: FeatureGroup { let darkMode = Feature() }
struct NamespacedFeatures: FeatureGroup {
    let settings = SettingsGroup()
    let profile = ProfileGroup()
}

/// Two flags with the same explicit key.
struct DuplicateFeatures: FeatureGroup {
    let first = Feature(key: "shared")
    let list = DuplicateGroup()
}
struct DuplicateGroup: FeatureGroup { let second = Feature(key: "shared") }
func temporaryDirectory() -> URL {
    TestDirectory.make("flagstaff-tests")
}
