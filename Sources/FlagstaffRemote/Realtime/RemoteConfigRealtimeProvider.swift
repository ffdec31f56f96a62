import Foundation

/// A provider that can also push invalidations: a long-lived connection on which the service announces new
/// template versions (Firebase's realtime stream).
///
/// ``RemoteConfig`` opens the stream when the first update listener is added and closes it when the last one
/// is removed. It owns everything around one connection: reconnecting with backoff, fetching when a newer
/// template is announced, and passing errors to the listeners. A provider only opens one connection and
/// reports what happens on it.
public protocol RemoteConfigRealtimeProvider: RemoteConfigProvider {
    /// Whether ``RemoteConfig`` should open the stream for update listeners.
    var isRealtimeEnabled: Bool { get }

    /// Opens one stream connection.
    ///
    /// The returned sequence ends when the connection ends (closed by either side); ``RemoteConfig`` then decides
    /// whether and when to reconnect. Stopping the iteration closes the connection.
    ///
    /// - Parameter request: The last known template version and ETag.
    /// - Returns: What happens on the connection.
    func openInvalidationStream(_ request: RemoteConfigStreamRequest) -> AsyncStream<RemoteConfigStreamEvent>
}

/// The inputs of one realtime stream connection.
public struct RemoteConfigStreamRequest: Sendable, Equatable {
    /// The template version of the last fetched config (`"0"` style numbers), if any.
    public var lastKnownTemplateVersion: String?
    /// The ETag of the last successful fetch.
    public var eTag: String?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - lastKnownTemplateVersion: The fetched template version.
    ///   - eTag: The last ETag.
    public init(lastKnownTemplateVersion: String? = nil, eTag: String? = nil) {
        self.lastKnownTemplateVersion = lastKnownTemplateVersion
        self.eTag = eTag
    }
}

/// One thing that happened on a realtime stream connection.
public enum RemoteConfigStreamEvent: Sendable, Equatable {
    /// The service accepted the connection (HTTP 200): the retry budget and backoff are reset.
    case connected
    /// The service announced the newest template version (`latestTemplateVersionNumber`).
    case templateVersion(Int64)
    /// The service asked the client to wait this many seconds before it reconnects (`retryIntervalSeconds`).
    case retryInterval(TimeInterval)
    /// The service turned realtime off for this project (`featureDisabled`): stop streaming.
    case disabled
    /// A message could not be understood; the connection stays open.
    case invalidMessage(String)
    /// The connection failed (refused, non-200 status, a 403 message). `retryable` is `false` for statuses
    /// the service does not expect to recover by itself (for Firebase: other than 429, 502, 503 and 504).
    case failed(RemoteConfigProviderError, retryable: Bool)
}
