import Flagstaff
import Foundation

extension UnleashClient {
    /// A binding of a `Setting` to the variant payload of the toggle `toggleName`, as the frontend API evaluated
    /// it for the client's context:
    /// `Setting(default: "#f05138", remote: unleash.binding("checkout.buttonColor"))`.
    ///
    /// The setting takes the payload's `value` (decoded by its type: text, a number, a case name, JSON) while
    /// the toggle is on and its variant is enabled and has a payload; otherwise (toggle off or unknown, the
    /// `disabled` variant, no payload) it has no remote value and falls back to its default. A payload that is
    /// not a valid value of the setting is ignored, and its explanation says why. Reads for settings count no
    /// metrics and send no impressions.
    /// - Parameter toggleName: The toggle's name.
    /// - Returns: The binding (pass it as `remote:` or to `Setting.bind(to:)`).
    public func binding(_ toggleName: String) -> SettingRemoteBinding {
        SettingRemoteBinding(source: UnleashPayloadSource(self), key: toggleName)
    }
}

extension UnleashServerClient {
    /// A binding of a `Setting` to the variant payload of the flag `flagName`, evaluated locally for
    /// ``defaultContext``: `Setting(default: 20, range: 1...100, remote: unleash.binding("search.pageSize"))`.
    ///
    /// The setting takes the payload's `value` while the flag is on for the default context and its variant has
    /// a payload; otherwise it falls back to its default. The variant is chosen once per new state (not per
    /// read), so give the default context a `userId` or `sessionId` when the flag's variants use the default
    /// stickiness. States given to ``engine`` directly (not fetched, persisted or bootstrapped by this client) are
    /// seen after the client's next state. Reads for settings count no metrics.
    /// - Parameter flagName: The flag's name.
    /// - Returns: The binding.
    public func binding(_ flagName: String) -> SettingRemoteBinding {
        SettingRemoteBinding(source: UnleashPayloadSource(self), key: flagName)
    }
}

/// The variant payloads of an Unleash client's toggles, as a `Setting`'s remote source (see the clients'
/// `binding(_:)`).
///
/// Its generation is the client's model generation, advanced whenever the client publishes a new model (each
/// applied answer, a new context), so a setting decodes its payload once per change.
final class UnleashPayloadSource: SettingRemoteSource {
    enum Client: Sendable {
        case frontend(UnleashClient)
        case server(UnleashServerClient)
    }

    let client: Client
    let settingValueGeneration: SettingSourceGeneration

    init(_ client: UnleashClient) {
        self.client = .frontend(client)
        settingValueGeneration = client.poller.modelGeneration
    }

    init(_ client: UnleashServerClient) {
        self.client = .server(client)
        settingValueGeneration = client.poller.modelGeneration
    }

    /// The client, as the registry link knows it.
    var toggleSource: any UnleashToggleSource {
        switch client {
        case .frontend(let client): return client
        case .server(let client): return client
        }
    }

    /// The payload's `value` of the toggle's variant, when the toggle is on and the variant is enabled and has a
    /// payload; else `nil`.
    func settingRemoteValue(forKey key: String) -> RemoteSettingValue? {
        let variant: UnleashVariant
        let fetchedAt: Date?
        switch client {
        case .frontend(let client):
            guard let toggle = client.toggle(named: key), toggle.enabled else { return nil }
            (variant, fetchedAt) = (toggle.variant, client.lastFetchTime)
        case .server(let client):
            (variant, fetchedAt) = (client.engine.variant(key, context: client.defaultContext), client.lastFetchTime)
            guard variant.featureEnabled else { return nil }
        }
        guard variant.enabled, let payload = variant.payload else { return nil }
        return RemoteSettingValue(text: payload.value, provider: toggleSource.name, fetchedAt: fetchedAt)
    }
}
