import Foundation

/// The outcome of the most recent fetch, as ``RemoteConfig/lastFetchStatus`` reports it.
public enum RemoteConfigFetchStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// No fetch has completed yet (persisted state included).
    case noFetchYet
    /// The last fetch succeeded (from the network, or served by the minimum fetch interval).
    case success
    /// The last fetch failed; last-known-good values are still served.
    case failure
    /// The last fetch was refused because of backoff after HTTP 429/500/503/504.
    case throttled
}

/// The outcome of ``RemoteConfig/fetchAndActivate()``, named as in the Firebase Apple SDK.
public enum RemoteConfigFetchAndActivateStatus: String, Sendable, Hashable, CaseIterable {
    /// A fetch went to the network, succeeded, and its config was activated.
    case successFetchedFromRemote
    /// No network fetch was made because the minimum fetch interval had not elapsed; the previously fetched
    /// config was activated (if it was newer).
    case successUsingPreFetchedData
    /// The fetch failed or was throttled; nothing was activated.
    case error
}

/// What one call to ``RemoteConfig/fetch(expirationDuration:)`` did.
public struct RemoteConfigFetchResult: Sendable, Equatable {
    /// The status, also stored as ``RemoteConfig/lastFetchStatus``.
    public var status: RemoteConfigFetchStatus
    /// The failure, for ``RemoteConfigFetchStatus/failure`` and ``RemoteConfigFetchStatus/throttled``.
    public var error: RemoteConfigError?
    /// `true` if no request was made because the minimum fetch interval had not elapsed.
    public var servedFromCache: Bool
    /// Keys whose fetched value differs from the active value after this fetch (added, removed or changed).
    public var pendingKeys: Set<String>

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - error: The failure, if any.
    ///   - servedFromCache: Whether the minimum fetch interval served it.
    ///   - pendingKeys: Keys that activation would change.
    public init(
        status: RemoteConfigFetchStatus, error: RemoteConfigError? = nil, servedFromCache: Bool = false,
        pendingKeys: Set<String> = []
    ) {
        self.status = status
        self.error = error
        self.servedFromCache = servedFromCache
        self.pendingKeys = pendingKeys
    }

    /// When fetching may resume, for a throttled result.
    public var throttledUntil: Date? { error?.throttledUntil }
}

/// What one call to ``RemoteConfig/fetchAndActivate()`` did.
public struct RemoteConfigFetchAndActivateResult: Sendable, Equatable {
    /// The SDK-style status.
    public var status: RemoteConfigFetchAndActivateStatus
    /// Whether activation changed the active config.
    public var activated: Bool
    /// The underlying fetch result.
    public var fetch: RemoteConfigFetchResult

    /// Creates a result.
    ///
    /// - Parameters:
    ///   - status: The status.
    ///   - activated: Whether activation changed anything.
    ///   - fetch: The fetch result.
    public init(status: RemoteConfigFetchAndActivateStatus, activated: Bool, fetch: RemoteConfigFetchResult) {
        self.status = status
        self.activated = activated
        self.fetch = fetch
    }
}
