import Flagstaff
import FlagstaffRemote
import FlagstaffUnleash
import Foundation

extension RemoteSetup {
    /// Builds a remote config reading Unleash frontend-API toggles (`"provider": "unleash"`).
    ///
    /// Fields: `baseURL` (required: the frontend API endpoint, e.g. `https://edge.example.com/api/frontend`),
    /// `apiKey` (required: the frontend client key), `appID` (the Unleash app name, default `flagstaff`),
    /// `namespace` (the Unleash environment, default `default`), `minimumFetchInterval`, `defaults`. A remote
    /// flag's `remoteKey` (else its key) names the toggle.
    /// - Parameters:
    ///   - remote: The manifest's provider description.
    ///   - source: The manifest file, for messages.
    ///   - store: The override store (toggles are persisted next to it).
    /// - Returns: The remote config with its defaults set.
    /// - Throws: `CLIFailure.runtime` naming the manifest, the JSON path and what was expected.
    static func makeUnleashConfig(_ remote: RegistryManifest.Remote, source: String, store: URL) throws -> RemoteConfig
    {
        func fail(_ path: String, _ message: String) -> CLIFailure {
            CLIFailure.runtime("invalid manifest: \(source): $.remote\(path): \(message)")
        }
        guard let text = remote.baseURL, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host != nil
        else {
            throw fail(
                ".baseURL",
                "the unleash provider needs \"baseURL\": the frontend API URL, such as \"https://edge.example.com/api/frontend\""
            )
        }
        guard let clientKey = remote.apiKey, !clientKey.isEmpty else {
            throw fail(".apiKey", "the unleash provider needs \"apiKey\" (the frontend client key, a non-empty string)")
        }
        let provider = UnleashRemoteConfigProvider(
            url: url, clientKey: clientKey, appName: remote.appID ?? "flagstaff",
            environment: remote.namespace ?? "default")
        let settings = RemoteConfigSettings(
            minimumFetchInterval: remote.minimumFetchInterval ?? RemoteConfigSettings.defaultMinimumFetchInterval,
            fetchTimeout: 15)
        let config = RemoteConfig(
            provider: provider, storageDirectory: storageDirectory(forStore: store), settings: settings)
        do {
            try config.setDefaults(remote.defaults.mapValues(\.foundationValue))
        } catch {
            throw fail(".defaults", "\(error)")
        }
        return config
    }
}
