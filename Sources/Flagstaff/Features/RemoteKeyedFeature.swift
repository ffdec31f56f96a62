/// A flag whose default comes from a remote-config key (e.g. `FlagstaffRemote`'s `RemoteFeature`).
///
/// The core knows no remote-config types; conforming lets `AnyFeatureRegistry.manifest()` export the key, so a
/// manifest written from a registry opens with the same remote bindings.
public protocol RemoteKeyedFeature: AnyFeature {
    /// The remote-config key whose value drives this flag.
    var remoteKey: String { get }
}
