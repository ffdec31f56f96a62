import Foundation

/// Settings of the Unleash clients beyond the seed SDK's initializer: timeouts, limits, backoff, persistence,
/// the clock waits are measured on and the source of timestamps.
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
    /// The source of wall-clock dates for timestamps (metrics buckets, the status's last fetch, registration):
    /// only read, never waited on.
    ///
    /// It is separate from ``clock`` because a `Clock` has no calendar date. With a test clock, pass
    /// `now: { clock.date }` (`ManualClock.date`, from FlagstaffTesting) so that dates move with the clock.
    public var now: @Sendable () -> Date
    /// The clock every wait is measured on: the poll interval and its backoff, the metrics interval and each
    /// request's ``timeout``. `ContinuousClock()` by default; tests pass a manual clock and advance it.
    public var clock: any Clock<Duration>

    /// Creates options.
    /// - Parameters:
    ///   - timeout: The longest one request may take.
    ///   - maximumResponseBytes: The largest response body accepted.
    ///   - maximumBackoffMultiplier: The cap of the backoff multiplier.
    ///   - storageDirectory: Where last-known-good toggles are persisted, or `nil`.
    ///   - connectionID: The connection id; a new UUID by default.
    ///   - now: The source of dates for timestamps.
    ///   - clock: The clock waits are measured on.
    public init(
        timeout: Duration = .seconds(10), maximumResponseBytes: Int = 16 << 20,
        maximumBackoffMultiplier: Int = 10, storageDirectory: URL? = nil,
        connectionID: String = UUID().uuidString.lowercased(),
        now: @escaping @Sendable () -> Date = { Date() }, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumBackoffMultiplier = max(1, maximumBackoffMultiplier)
        self.storageDirectory = storageDirectory
        self.connectionID = connectionID
        self.now = now
        self.clock = clock
    }
}
