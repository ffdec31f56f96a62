import Flagstaff
import FlagstaffRemote

/// Makes the flags of a manifest's `remote` entries and attaches the remote config to the registry.
enum RemoteFlagFactory {
    /// A flag reading its default from the remote config, or `nil` to keep the manifest's static default.
    static func make(_ flag: RegistryManifest.Flag, config: RemoteConfig) -> AnyFeature? {
        nil
    }

    /// Attaches the remote config so the console shows its status and `Ctrl-R` fetches.
    static func attach(_ config: RemoteConfig, to registry: FeatureRegistry) {
    }
}
