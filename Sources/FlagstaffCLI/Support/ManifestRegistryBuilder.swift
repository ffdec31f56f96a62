import Flagstaff

/// Builds a registry from a manifest for the command line.
enum ManifestRegistryBuilder {
    /// Builds the registry.
    /// - Parameters:
    ///   - manifest: a validated manifest.
    ///   - store: the override store.
    ///   - options: registry options.
    /// - Returns: the registry.
    /// - Throws: `RegistryError` if the manifest's keys collide.
    static func build(_ manifest: RegistryManifest, store: any OverrideStore, options: RegistryOptions) throws -> FeatureRegistry {
        try FeatureRegistry(manifest: manifest, store: store, options: options)
    }
}
