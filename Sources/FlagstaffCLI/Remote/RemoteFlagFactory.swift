import Flagstaff
import FlagstaffRemote

/// Makes the flags of a manifest's `remote` entries and attaches the remote config to the registry.
enum RemoteFlagFactory {
    /// A `RemoteFeature` reading the entry's `remoteKey` (else its key) from the remote config, falling back
    /// to the entry's `default`.
    static func make(_ flag: RegistryManifest.Flag, config: RemoteConfig) -> AnyFeature {
        RemoteFeature(key: flag.key, remoteKey: flag.remoteKey ?? flag.key, defaultState: flag.default,
                      label: flag.label, description: flag.description, requiresRestart: flag.requiresRestart,
                      config: config)
    }

    /// Attaches the remote config so the console shows its status, `Ctrl-R` fetches, and activations
    /// notify the registry.
    static func attach(_ config: RemoteConfig, to registry: FeatureRegistry) {
        config.attach(to: registry)
    }

    /// Puts back the `remoteKey` of remote flags whose remote key differs from their key, which the core's
    /// `FeatureRegistry.manifest()` cannot see for `RemoteFeature`s.
    static func addRemoteKeys(to manifest: RegistryManifest, from registry: FeatureRegistry) -> RegistryManifest {
        func fix(_ flags: [RegistryManifest.Flag]) -> [RegistryManifest.Flag] {
            flags.map { flag in
                var flag = flag
                if let remote = registry.feature(forKey: flag.key) as? RemoteFeature, remote.remoteKey != remote.key {
                    flag.remoteKey = remote.remoteKey
                }
                return flag
            }
        }
        func fix(_ group: RegistryManifest.Group) -> RegistryManifest.Group {
            var group = group
            group.flags = fix(group.flags)
            group.groups = group.groups.map(fix)
            return group
        }
        var result = manifest
        result.flags = fix(manifest.flags)
        result.groups = manifest.groups.map(fix)
        return result
    }
}
