import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import Foundation

/// The declarations of the built-in demo registry that `flagstaff` opens when no manifest is given
/// (``registry(store:options:)``): the flags of the sample apps plus enough realistic ones, in groups and with
/// descriptions, to make search worth trying.
///
/// At the top level it also has the typed settings of Firebase's Remote Config guide: `cardColor`,
/// `welcomeMessage`, `maxItems`, `theme` and `appFeatureConfig`.
///
/// Its overrides live in `~/.config/flagstaff/demo.json` unless `--store` says otherwise.
/// `moments.isRoundedAvatar` is a remote flag, and `cardColor`, `welcomeMessage`, `maxItems` and
/// `appFeatureConfig` are settings, bound to a Firebase remote config for a demo project: they show their
/// defaults with no network (`flagstaff fetch` reports the failed fetch) and the cached values live in
/// `<store>.remote/`.
struct DemoFeatures: FeatureGroup {
    /// The display name shown by the console and the CLI.
    static let displayName = "Moments demo"

    let blueText = Feature(description: "Draw body text in blue, to check that styling overrides reach every screen")
    let debugLogging = Feature(description: "Write debug-level messages to the app log", default: true)
    let useTabBarNav = Feature(
        label: "Use Tab Bar Navigation",
        description: "Replace the side menu with a tab bar; the navigation stack is built at launch",
        requiresRestart: true)
    let tuesdayExperiment = DynamicFeature(
        description: "An experiment that is only on on Tuesdays (computed when read)"
    ) { _ in
        Calendar(identifier: .gregorian).component(.weekday, from: Date()) == 3
    }

    let cardColor: Setting<String>
    let welcomeMessage: Setting<String>
    let maxItems: Setting<Int>
    let theme = Setting(
        default: Theme.system, description: "The colour scheme: light, dark or follow the system; applied at launch",
        requiresRestart: true)
    let appFeatureConfig: Setting<AppFeatureConfig>

    /// The demo's remote provider as a manifest section.
    static let remoteDescription = RegistryManifest.Remote(
        provider: "firebase", projectID: "flagstaff-demo", apiKey: "demo-api-key",
        appID: "1:000000000000:ios:0000000000000000", defaults: ["isRoundedAvatar": .bool(false)])

    /// The remote config `moments.isRoundedAvatar` reads.
    let remoteConfig: RemoteConfig

    let list = DemoListFeatures()
    let moments: DemoMomentsFeatures
    let checkout = DemoCheckoutFeatures()
    let diagnostics = DemoDiagnosticsFeatures()

    /// Creates the demo registry: the declarations, their remote config attached.
    /// - Parameters:
    ///   - store: the override store; remote values are cached next to it.
    ///   - options: registry options.
    static func registry(store: FileOverrideStore, options: RegistryOptions) -> FeatureRegistry<DemoFeatures> {
        let registry = FeatureRegistry(DemoFeatures(remoteStorage: store.url), store: store, options: options)
        registry.remoteConfig.attach(to: registry)
        return registry
    }

    /// Creates the declarations.
    /// - Parameter remoteStorage: the override store's location; remote values are cached next to it.
    init(remoteStorage: URL) {
        let description = Self.remoteDescription
        let firebase = FirebaseRemoteConfigProvider(
            options: FirebaseRemoteConfigOptions(
                projectID: description.projectID ?? "flagstaff-demo", apiKey: description.apiKey ?? "",
                appID: description.appID ?? ""))
        let config = RemoteConfig(
            provider: firebase, storageDirectory: RemoteSetup.storageDirectory(forStore: remoteStorage))
        // Constant, valid defaults: setting them cannot fail.
        try? config.setDefaults(description.defaults.mapValues(\.foundationValue))
        remoteConfig = config
        moments = DemoMomentsFeatures(remoteConfig: config)
        cardColor = Setting(
            default: "#f05138", description: "Background colour of the moment cards (remote config cardColor)",
            remote: config.binding("cardColor"))
        welcomeMessage = Setting(
            default: "Welcome to Moments",
            description: "The greeting above the feed on first launch (remote config welcome_message)",
            remote: config.binding("welcome_message"))
        maxItems = Setting(
            default: 20, range: 1...100,
            description: "How many moments a page of the feed loads (remote config max_items)",
            remote: config.binding("max_items"))
        appFeatureConfig = Setting(
            default: AppFeatureConfig.standard,
            description: "Upload limit, colours and the new-feature switch, as JSON (remote config app_feature_config)",
            remote: config.binding("app_feature_config"))
    }
}
