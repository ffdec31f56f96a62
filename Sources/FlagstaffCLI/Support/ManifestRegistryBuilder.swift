import Flagstaff
import FlagstaffRemote

/// Builds a registry from a manifest for the command line, with remote flags and settings (`remoteKey`) bound to
/// the manifest's remote config when it has one.
enum ManifestRegistryBuilder {
    /// Builds the registry.
    /// - Parameters:
    ///   - manifest: a validated manifest.
    ///   - store: the override store.
    ///   - options: registry options.
    ///   - remoteConfig: the remote config of the manifest's `"remote"` section, if any.
    /// - Returns: the registry.
    /// - Throws: `RegistryError` if the manifest's keys collide.
    static func build(
        _ manifest: RegistryManifest, store: any OverrideStore, options: RegistryOptions,
        remoteConfig: RemoteConfig?
    ) throws -> AnyFeatureRegistry {
        let registry = try AnyFeatureRegistry(
            manifest: manifest, store: store, options: options, settingSource: remoteConfig
        ) { flag in
            guard flag.kind == .remote, let remoteConfig else { return nil }
            return RemoteFlagFactory.make(flag, config: remoteConfig)
        }
        if let remoteConfig { RemoteFlagFactory.attach(remoteConfig, to: registry) }
        return registry
    }
}
