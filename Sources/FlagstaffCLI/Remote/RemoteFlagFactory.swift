import Flagstaff
import FlagstaffRemote

/// Makes the flags of a manifest's `remote` entries and attaches the remote config to the registry.
enum RemoteFlagFactory {
    /// A `RemoteFeature` reading the entry's `remoteKey` (else its key) from the remote config, falling back
    /// to the entry's `default`.
    static func make(_ flag: RegistryManifest.Flag, config: RemoteConfig) -> AnyFeature {
        RemoteFeature(
            key: flag.key, remoteKey: flag.remoteKey ?? flag.key, default: flag.default,
            label: flag.label, description: flag.description, requiresRestart: flag.requiresRestart,
            config: config)
    }

    /// Attaches the remote config so the console shows its status, `Ctrl-R` fetches, and activations
    /// notify the registry.
    static func attach(_ config: RemoteConfig, to registry: AnyFeatureRegistry) {
        config.attach(to: registry)
    }
}
