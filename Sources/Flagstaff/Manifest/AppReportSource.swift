import Foundation

/// The remote values an app reported in its announced manifest (``RegistryManifest/AppReport``), as the source of
/// a tool's settings: a tool shows the app's own remote values, with when the app reported them, and never fetches
/// or evaluates them itself. Keyed by remote key; a setting the app had no remote value for is absent.
final class AppReportSource: SettingRemoteSource {
    let settingValueGeneration = SettingSourceGeneration()
    private let values: [String: RemoteSettingValue]

    /// The reported remote values of `manifest`'s settings (none without an `app` report).
    init(_ manifest: RegistryManifest) {
        var values: [String: RemoteSettingValue] = [:]
        if let app = manifest.app {
            let provider = "the app, \(app.summary)"
            func collect(_ settings: [RegistryManifest.Setting], _ groups: [RegistryManifest.Group]) {
                for setting in settings {
                    guard let remoteKey = setting.remoteKey, let reported = app.values[setting.key],
                        reported.source == .remote
                    else { continue }
                    let text: String =
                        if case .string(let string) = reported.value { string } else {
                            JSONSettingValue.storedValue(of: reported.value).json
                        }
                    values[remoteKey] = RemoteSettingValue(text: text, provider: provider, fetchedAt: app.reportedAt)
                }
                for group in groups { collect(group.settings, group.groups) }
            }
            collect(manifest.settings, manifest.groups)
        }
        self.values = values
    }

    /// The app's value, or `nil` when it had none.
    func settingRemoteValue(forKey key: String) -> RemoteSettingValue? { values[key] }
}
