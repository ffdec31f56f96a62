import Flagstaff
import FlagstaffRemote
import Foundation

/// The built-in demo registry that `flagstaff` opens when no manifest is given: the flags of the sample
/// apps plus enough realistic ones, in groups and with descriptions, to make search worth trying.
///
/// Its overrides live in `~/.config/flagstaff/demo.json` unless `--store` says otherwise.
final class DemoFeatures: FeatureRegistry, @unchecked Sendable {
    // @unchecked: adds only immutable `let` flags and groups to FeatureRegistry, which is thread-safe.

    /// The display name shown by the console and the CLI.
    static let displayName = "Moments demo"

    let blueText = Feature(description: "Draw body text in blue, to check that styling overrides reach every screen")
    let debugLogging = Feature(description: "Write debug-level messages to the app log", defaultState: true)
    let useTabBarNav = Feature(
        label: "Use Tab Bar Navigation",
        description: "Replace the side menu with a tab bar; the navigation stack is built at launch",
        requiresRestart: true)
    let tuesdayExperiment = DynamicFeature(
        description: "An experiment that is only on on Tuesdays (computed when read)"
    ) { _ in
        Calendar(identifier: .gregorian).component(.weekday, from: Date()) == 3
    }

    /// The demo's remote config, once remote flags are wired (`nil` until then).
    var remoteConfig: RemoteConfig? { nil }

    /// The demo's remote provider as a manifest section (`nil` until remote flags are wired).
    static var remoteDescription: RegistryManifest.Remote? { nil }

    let list = DemoListFeatures()
    let moments = DemoMomentsFeatures()
    let checkout = DemoCheckoutFeatures()
    let diagnostics = DemoDiagnosticsFeatures()
}
