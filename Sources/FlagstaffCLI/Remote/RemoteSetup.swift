import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import Foundation

/// Builds the remote config a manifest's `"remote"` section describes.
///
/// The CLI knows one provider, `firebase`. Fetched values are persisted in `<store>.remote/` next to the
/// override store, so `flagstaff fetch` in one invocation serves `get`, `list` and the console in the next
/// ones (last-known-good values, no network needed).
enum RemoteSetup {
    /// The providers this build of `flagstaff` can use.
    static let knownProviders = ["firebase", "unleash"]

    /// The directory remote values are persisted in for a store.
    static func storageDirectory(forStore store: URL) -> URL {
        StoreLayout.unresolved(store).remoteFolder
    }

    /// Creates the remote config.
    /// - Parameters:
    ///   - remote: the manifest's provider description.
    ///   - source: the manifest file, for messages.
    ///   - store: the override store (remote values are persisted next to it).
    /// - Returns: the remote config with its defaults set.
    /// - Throws: `CLIFailure.runtime` naming the manifest, the JSON path and what was expected.
    static func makeConfig(_ remote: RegistryManifest.Remote, source: String, store: URL) throws -> RemoteConfig {
        func fail(_ path: String, _ message: String) -> CLIFailure {
            CLIFailure.runtime("invalid manifest: \(source): $.remote\(path): \(message)")
        }
        if remote.provider == "unleash" { return try makeUnleashConfig(remote, source: source, store: store) }
        guard remote.provider == "firebase" else {
            throw fail(
                ".provider",
                "unknown provider \(JSONOutput.quoted(remote.provider)) (this flagstaff knows: \(knownProviders.joined(separator: ", ")))"
            )
        }
        func required(_ value: String?, _ field: String) throws -> String {
            guard let value, !value.isEmpty else {
                throw fail(".\(field)", "the firebase provider needs \"\(field)\" (a non-empty string)")
            }
            return value
        }
        let projectID = try required(remote.projectID, "projectID")
        let apiKey = try required(remote.apiKey, "apiKey")
        let appID = try required(remote.appID, "appID")
        var baseURL = FirebaseRemoteConfigOptions.defaultBaseURL
        if let text = remote.baseURL {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme), url.host != nil
            else {
                throw fail(
                    ".baseURL",
                    "expected an http or https URL such as \"https://firebaseremoteconfig.googleapis.com\", found \(JSONOutput.quoted(text))"
                )
            }
            baseURL = url
        }
        // The production service gets a registered Firebase installation; a custom baseURL (a stand-in or a
        // proxy that adds credentials) gets none.
        let options = FirebaseRemoteConfigOptions(
            projectID: projectID, apiKey: apiKey, appID: appID, baseURL: baseURL,
            namespace: remote.namespace ?? "firebase", installation: remote.baseURL == nil ? .automatic : .none)
        let settings = RemoteConfigSettings(
            minimumFetchInterval: remote.minimumFetchInterval ?? RemoteConfigSettings.defaultMinimumFetchInterval,
            fetchTimeout: 15)
        let config = RemoteConfig(
            provider: FirebaseRemoteConfigProvider(options: options),
            storageDirectory: storageDirectory(forStore: store), settings: settings)
        do {
            try config.setDefaults(remote.defaults.mapValues(\.foundationValue))
        } catch {
            throw fail(".defaults", "\(error)")
        }
        return config
    }
}
