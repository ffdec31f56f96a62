import Flagstaff
import Foundation

extension RemoteConfig: RemoteSource {
    /// The provider status for the console header and `flagstaff` output.
    ///
    /// `.throttled(until:)` while backoff is in effect; `.failed(message)` after a failed fetch;
    /// `.neverFetched` before the first success; `.stale` when the last successful fetch is older than
    /// ``RemoteConfigSettings/minimumFetchInterval``; otherwise `.ok`. `lastFetch` is the last successful fetch.
    public var status: RemoteSourceStatus {
        let now = environment.now()
        let (metadata, interval) = state.withLock { ($0.metadata, $0.settings.minimumFetchInterval) }
        let state: RemoteSourceStatus.State
        if let end = metadata.throttleEndTime, end > now {
            state = .throttled(until: end)
        } else {
            switch metadata.lastFetchStatus {
            case .failure, .throttled:
                state = .failed(metadata.lastError ?? "fetch failed")
            case .noFetchYet:
                state = .neverFetched
            case .success:
                if interval > 0, let last = metadata.lastFetchTime, now.timeIntervalSince(last) > interval {
                    state = .stale
                } else {
                    state = .ok
                }
            }
        }
        return RemoteSourceStatus(lastFetch: metadata.lastFetchTime, state: state)
    }

    /// Fetches now (ignoring the minimum fetch interval, but not backoff) and activates: the console's Ctrl-R.
    ///
    /// The outcome is visible in ``status``; attached registries are notified of changed flags.
    public func refresh() async {
        let result = await fetch(expirationDuration: 0)
        if result.status == .success { activate() }
    }

    /// A short human summary of the status, e.g. `firebase, fetched 2026-11-21T21:40:00Z` or
    /// `firebase, throttled until …`.
    public var statusSummary: String {
        let status = self.status
        let fetched = status.lastFetch.map { "fetched \($0.formatted(.iso8601))" } ?? "never fetched"
        switch status.state {
        case .neverFetched: return "\(name), never fetched"
        case .ok: return "\(name), \(fetched)"
        case .stale: return "\(name), stale, \(fetched)"
        case .throttled(let until): return "\(name), throttled until \(until.formatted(.iso8601)), \(fetched)"
        case .failed(let message): return "\(name), last fetch failed: \(message); \(fetched)"
        }
    }

    /// Attaches this config to a registry: the registry lists it as a remote source (status, Ctrl-R), and
    /// every activation that changes values notifies the registry with the keys of its ``RemoteFeature``
    /// flags and its `Setting`s bound to this config (``binding(_:)``) whose remote key changed
    /// (`FeatureChange.origin == .remote`). Subscribers read the new values: the active config changes before
    /// they are notified.
    ///
    /// Attaching the same registry twice does nothing. The registry is held weakly.
    ///
    /// - Parameter registry: The registry holding flags bound to this config.
    public func attach(to registry: AnyFeatureRegistry) {
        registry.attach(self)
        let identifier = ObjectIdentifier(registry)
        let isNew = state.withLock { $0.attachedRegistries.insert(identifier).inserted }
        guard isNew else { return }
        addOnActivateListener { [weak self, weak registry] changedRemoteKeys in
            guard let self, let registry else { return }
            let flagKeys = registry.allFeatures.compactMap { feature -> String? in
                guard let remote = feature as? RemoteFeature, remote.config === self,
                    changedRemoteKeys.contains(remote.remoteKey)
                else { return nil }
                return remote.key
            }
            let settingKeys = registry.settingKeys(boundTo: self, remoteKeys: changedRemoteKeys)
            registry.notifyRemoteChange(keys: settingKeys.union(flagKeys))
        }
    }
}

extension RemoteConfig {
    /// Builds a ``RemoteFeature`` bound to this config for a manifest's `remote` flag, or `nil` for other kinds.
    ///
    /// Pass it to the core's manifest initialiser so a standalone tool (the `flagstaff` CLI, the console)
    /// resolves remote flags from this config, with the config as the source of the manifest's settings that
    /// have a `remoteKey`, then attach the config:
    ///
    /// ```swift
    /// let registry = try AnyFeatureRegistry(
    ///     manifest: manifest, store: store, settingSource: config, makeFeature: config.makeFeature(for:))
    /// config.attach(to: registry)
    /// ```
    ///
    /// The remote key is the flag's `remoteKey`, or its full `key` when absent (the manifest's convention).
    ///
    /// - Parameter flag: A manifest flag.
    /// - Returns: A bound remote flag for `kind == .remote`, else `nil` (the core builds the default kind).
    public func makeFeature(for flag: RegistryManifest.Flag) -> AnyFeature? {
        guard flag.kind == .remote else { return nil }
        return RemoteFeature(
            key: flag.key, remoteKey: flag.remoteKey ?? flag.key, default: flag.default,
            label: flag.label, description: flag.description,
            requiresRestart: flag.requiresRestart, config: self)
    }
}
