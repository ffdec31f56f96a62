/// A registry member that can take a remote value: every ``Setting``, whatever its value type. Remote sources
/// use it to find the settings bound to them (to notify registries after a change) and manifests to export
/// and apply remote keys.
package protocol RemoteBindableSetting: AnyFeature {
    /// The remote binding, if any.
    var remoteBinding: SettingRemoteBinding? { get }
    /// Binds (or rebinds) the setting to a remote value.
    func bind(to binding: SettingRemoteBinding)
}

extension Setting: RemoteBindableSetting {}

extension AnyFeatureRegistry {
    /// The keys of the settings bound to `source` whose remote key is one of `remoteKeys` (what a source passes
    /// to ``notifyRemoteChange(keys:)`` after its values changed).
    /// - Parameters:
    ///   - source: the remote source.
    ///   - remoteKeys: the source's keys whose values changed.
    package func settingKeys(boundTo source: any SettingRemoteSource, remoteKeys: Set<String>) -> Set<String> {
        var keys: Set<String> = []
        for member in allFeatures {
            guard let setting = member as? any RemoteBindableSetting, let binding = setting.remoteBinding,
                binding.source === source, remoteKeys.contains(binding.key)
            else { continue }
            keys.insert(setting.key)
        }
        return keys
    }
}

/// The source of settings whose manifest names a `remoteKey` when no remote provider was given: it never has a
/// value, so the setting resolves to its default, keeps its remote key (the exported manifest still has it)
/// and its explanation says `no remote value for "<key>"`.
package final class UnconfiguredSettingSource: SettingRemoteSource {
    /// The one instance.
    package static let shared = UnconfiguredSettingSource()

    private init() {}

    /// Never advanced.
    package let settingValueGeneration = SettingSourceGeneration()

    /// Always `nil`.
    package func settingRemoteValue(forKey key: String) -> RemoteSettingValue? { nil }
}
