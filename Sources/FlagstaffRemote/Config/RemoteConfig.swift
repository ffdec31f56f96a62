import Flagstaff
import Foundation
import Logging
import Synchronization

/// Firebase-compatible remote config: in-app defaults, fetched and active configs, typed values.
///
/// Values resolve as in the Firebase Apple SDK: the active config (source ``RemoteConfigSource/remote``) wins
/// over the in-app defaults (``RemoteConfigSource/default``); a key in neither yields an empty value
/// (``RemoteConfigSource/static``). ``fetch(expirationDuration:)`` downloads a template through a
/// ``RemoteConfigProvider`` into the *fetched* config; ``activate()`` makes it the *active* one that reads see.
///
/// Unlike the Apple SDK, backoff after HTTP 429/500/503/504 really engages (2 minutes doubling to 4 hours,
/// ±50 % jitter, persisted), and everything — fetched and active configs, ETag, fetch times, throttle end,
/// template versions, custom signals — is persisted as JSON files in the storage directory you pass, so the
/// last-known-good values are served at the next launch with no network.
///
/// ```swift
/// let config = RemoteConfig(provider: firebase, storageDirectory: cacheURL)
/// try config.setDefaults(fromPropertyListFile: defaultsURL)
/// let result = await config.fetchAndActivate()
/// if config["isRoundedAvatar"].boolValue { … }
/// ```
///
/// Time: waits (the fetch timeout, auto-refresh) run on ``RemoteConfigEnvironment/clock``; the dates compared
/// with persisted state (minimum fetch interval, backoff) come from ``RemoteConfigEnvironment/now``. Pass a test
/// clock and its dates through `environment` (see ``RemoteConfigEnvironment``).
///
/// Thread-safety: every member may be used from any thread or task. Value reads take no lock and see the active
/// values and defaults of one activation or `setDefaults`, never a mix. Fetches are coalesced (concurrent
/// callers share one request); listener callbacks run on the task that completed the fetch or activation,
/// outside any lock.
public final class RemoteConfig: Sendable {
    /// The provider that performs fetches.
    public let provider: any RemoteConfigProvider
    /// The directory holding persisted state, or `nil` for an in-memory config.
    public let storageDirectory: URL?

    let environment: RemoteConfigEnvironment
    let storage: RemoteConfigStorage?
    let state: AnnotatedMutex<RemoteConfigState>
    /// The active values and defaults, for lock-free reads (the same cell as `state.published`).
    let values: PublishedReferenceBox<RemoteConfigValues>
    /// Serialises snapshot-and-write of the files so the newest state is always written last.
    let writeLock = AnnotatedMutex(())
    let logger = Logger(label: "flagstaff.remote")
    /// Advanced after every activation that changes the active config, so flags and settings backed by remote
    /// values can cache their value and revalidate with one atomic load.
    @usableFromInline let generation = SettingSourceGeneration()

    /// Creates a remote config and loads any state persisted in `storageDirectory`.
    ///
    /// Missing files are normal (first launch). Unreadable files are ignored and reported in
    /// ``persistenceProblems`` (and logged), so a corrupt cache never keeps the app from starting.
    ///
    /// - Parameters:
    ///   - provider: The service to fetch from.
    ///   - storageDirectory: Where to persist state; `nil` keeps everything in memory.
    ///   - settings: The minimum fetch interval and fetch timeout.
    ///   - environment: The clock waits run on, the date source and the random source (`.live` by default;
    ///     inject a test clock and its dates in tests).
    public init(
        provider: any RemoteConfigProvider,
        storageDirectory: URL? = nil,
        settings: RemoteConfigSettings = RemoteConfigSettings(),
        environment: RemoteConfigEnvironment = .live
    ) {
        self.provider = provider
        self.storageDirectory = storageDirectory
        provider.prepare(storageDirectory: storageDirectory)
        self.environment = environment
        let storage = storageDirectory.map(RemoteConfigStorage.init(directory:))
        self.storage = storage
        var initial = RemoteConfigState(settings: settings)
        if let snapshot = storage?.load() {
            initial.fetched = snapshot.fetched
            initial.setActive(snapshot.active)
            initial.metadata = snapshot.metadata
            initial.problems = snapshot.problems
        }
        values = initial.published
        state = AnnotatedMutex(initial)
        for problem in initial.problems {
            logger.warning("\(problem.description)")
        }
    }

    deinit {
        state.withLock { $0.shutDown() }
    }

    /// The provider's display name, e.g. `"firebase"`.
    public var name: String { provider.name }

    /// The fetch settings. Changing them affects the next fetch.
    public var settings: RemoteConfigSettings {
        get { state.withLock { $0.settings } }
        set { state.withLock { $0.settings = newValue } }
    }

    // MARK: Reads

    /// The value for `key`: the active remote value, else the default, else an empty static value.
    ///
    /// - Parameter key: The parameter key.
    /// - Returns: The value with its source. Cheap: two dictionary lookups at most, no lock.
    public func configValue(forKey key: String) -> RemoteConfigValue {
        values.read { $0.active[key] ?? $0.defaults[key] } ?? .empty
    }

    /// The value for `key` from one source only.
    ///
    /// - Parameters:
    ///   - key: The parameter key.
    ///   - source: ``RemoteConfigSource/remote`` (active config), ``RemoteConfigSource/default``, or
    ///     ``RemoteConfigSource/static`` (always empty).
    /// - Returns: The value, or an empty static value if that source has no such key.
    public func configValue(forKey key: String, source: RemoteConfigSource) -> RemoteConfigValue {
        values.read { current -> RemoteConfigValue? in
            switch source {
            case .remote: current.active[key]
            case .default: current.defaults[key]
            case .static: nil
            }
        } ?? .empty
    }

    /// The value for `key`, as ``configValue(forKey:)``.
    ///
    /// - Parameter key: The parameter key.
    public subscript(key: String) -> RemoteConfigValue {
        configValue(forKey: key)
    }

    /// The keys present in one source, sorted.
    ///
    /// - Parameter source: ``RemoteConfigSource/remote`` (active config) or ``RemoteConfigSource/default``;
    ///   ``RemoteConfigSource/static`` has no keys.
    /// - Returns: The keys, sorted.
    public func allKeys(from source: RemoteConfigSource) -> [String] {
        values.read { current -> [String] in
            switch source {
            case .remote: Array(current.active.keys)
            case .default: Array(current.defaults.keys)
            case .static: []
            }
        }.sorted()
    }

    /// The active-config keys starting with `prefix` (all of them for `nil` or `""`).
    ///
    /// - Parameter prefix: The prefix.
    /// - Returns: The matching keys.
    public func keys(withPrefix prefix: String?) -> Set<String> {
        let keys = values.read { Set($0.active.keys) }
        guard let prefix, !prefix.isEmpty else { return keys }
        return keys.filter { $0.hasPrefix(prefix) }
    }

    /// The active remote value for `key`, or `nil` if the active config does not have it (no defaults).
    ///
    /// - Parameter key: The parameter key.
    /// - Returns: The value with source ``RemoteConfigSource/remote``, or `nil`.
    public func activeValue(forKey key: String) -> RemoteConfigValue? {
        values.read { $0.active[key] }
    }

    /// The fetched (not necessarily active) entries as strings, or `nil` before any successful fetch.
    public var fetchedEntries: [String: String]? {
        state.withLock { $0.fetched?.entries }
    }

    // MARK: Fetch bookkeeping

    /// The status of the most recent fetch (persisted).
    public var lastFetchStatus: RemoteConfigFetchStatus {
        state.withLock { $0.metadata.lastFetchStatus }
    }

    /// When the last successful fetch completed, or `nil` if none has (persisted).
    public var lastFetchTime: Date? {
        state.withLock { $0.metadata.lastFetchTime }
    }

    /// The error of the most recent fetch in this process, or `nil` after a success.
    public var lastFetchError: RemoteConfigError? {
        state.withLock { $0.lastError }
    }

    /// The persisted message of the last failure, available across restarts; `nil` after a success.
    public var lastFetchErrorMessage: String? {
        state.withLock { $0.metadata.lastError }
    }

    /// When fetching may resume, if backoff is in effect now.
    public var throttledUntil: Date? {
        let now = environment.now()
        return state.withLock { current in
            current.metadata.throttleEndTime.flatMap { $0 > now ? $0 : nil }
        }
    }

    /// A copy of the persisted bookkeeping (ETag, times, throttle, template versions, custom signals).
    public var metadata: RemoteConfigMetadata {
        state.withLock { $0.metadata }
    }

    /// A counter that changes whenever the active config changes; starts at 1.
    ///
    /// Cheap (one atomic load). ``RemoteFeature`` uses it to revalidate its cached value on every read.
    @inlinable
    public var activeConfigGeneration: UInt64 {
        generation.current
    }

    /// Problems met while loading or saving persisted state (most recent last); empty when all is well.
    public var persistenceProblems: [RemoteConfigError] {
        state.withLock { $0.problems }
    }
}
