import Foundation

/// Settings of the Unleash clients beyond the seed SDK's initializer: timeouts, limits, backoff, persistence
/// and the clock.
public struct UnleashClientOptions: Sendable {
    /// The longest one request may take (default 10 s).
    public var timeout: Duration
    /// The largest response body accepted, in bytes (default 16 MiB); larger answers are errors and change nothing.
    public var maximumResponseBytes: Int
    /// After HTTP 429 or 5xx the poll interval grows by one refresh interval per consecutive failure, up to this
    /// many times the refresh interval (default 10); the first success brings it back to normal.
    public var maximumBackoffMultiplier: Int
    /// Where last-known-good toggles are persisted (one file), or `nil` to keep them in memory only.
    public var storageDirectory: URL?
    /// The connection id sent as `unleash-connection-id`; a new UUID by default, stable for the client's life.
    public var connectionID: String
    /// The clock for timestamps (metrics buckets, status); tests inject a fixed one.
    public var now: @Sendable () -> Date

    /// Creates options.
    /// - Parameters:
    ///   - timeout: The longest one request may take.
    ///   - maximumResponseBytes: The largest response body accepted.
    ///   - maximumBackoffMultiplier: The cap of the backoff multiplier.
    ///   - storageDirectory: Where last-known-good toggles are persisted, or `nil`.
    ///   - connectionID: The connection id; a new UUID by default.
    ///   - now: The clock.
    public init(timeout: Duration = .seconds(10), maximumResponseBytes: Int = 16 << 20,
                maximumBackoffMultiplier: Int = 10, storageDirectory: URL? = nil,
                connectionID: String = UUID().uuidString.lowercased(),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumBackoffMultiplier = max(1, maximumBackoffMultiplier)
        self.storageDirectory = storageDirectory
        self.connectionID = connectionID
        self.now = now
    }
}
