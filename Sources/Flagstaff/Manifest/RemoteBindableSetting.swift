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
