/// What reads see, replaced whole on every activation and every `setDefaults`: the active remote values and the
/// in-app defaults. Immutable, so ``RemoteConfig`` publishes it through a `PublishedReference` and reads take no lock.
final class RemoteConfigValues: Sendable {
    /// The active config's entries as values with source ``RemoteConfigSource/remote``.
    let active: [String: RemoteConfigValue]
    /// The in-app defaults, with source ``RemoteConfigSource/default``.
    let defaults: [String: RemoteConfigValue]

    init(active: [String: RemoteConfigValue] = [:], defaults: [String: RemoteConfigValue] = [:]) {
        self.active = active
        self.defaults = defaults
    }
}
