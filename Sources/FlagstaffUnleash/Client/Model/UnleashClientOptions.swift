import Foundation

/// Settings of the Unleash clients beyond the seed SDK's initializer: timeouts, limits, backoff, persistence,
/// the clock waits are measured on and the source of timestamps.
public struct UnleashClientOptions: Sendable {
    /// The longest one request may take (default 10 s).
    public var timeout: Duration
    /// The largest response body accepted, in bytes (default 16 MiB); larger answers are errors and change nothing.
    public var maximumResponseBytes: Int
    /// After HTTP 404, 429 or 5xx the poll interval grows by one refresh interval per consecutive failure, up to
    /// this many times the refresh interval (default 10); the first success brings it back to normal. Metrics
    /// posts back off the same way on the metrics interval.
    public var maximumBackoffMultiplier: Int
    /// Where last-known-good toggles are persisted, or `nil` to keep them in memory only.
    ///
    /// Each client writes one file named after its kind, app name and server URL
    /// (`unleash-frontend-<app>-<hash>.json`, `unleash-client-<app>-<hash>.json`), so clients sharing a directory
    /// never overwrite each other's snapshot.
    public var storageDirectory: URL?
    /// Whether a bootstrap wins over toggles persisted by an earlier run (default `true`, as in Unleash's JS and
    /// Node SDKs): the client serves the bootstrap until its first successful fetch. With `false` the persisted
    /// toggles win and the bootstrap is used only when nothing was persisted. An empty bootstrap never wins.
    public var bootstrapOverride: Bool
    /// The connection id sent as `unleash-connection-id`, or `nil` (the default) for a new UUID minted by each
    /// client and kept for its life (``UnleashClient/connectionID``). Set it only to pin an id, and then give each
    /// client its own.
    public var connectionID: String?
    /// Streaming mode (``UnleashExperimentalMode/streaming``): the first pause before reconnecting a stream
    /// (default 1 s); it doubles with each failure in a row up to ``maximumReconnectDelay``, with ±50 % jitter, and
    /// is never shorter than the server's `retry:`.
    public var minimumReconnectDelay: Duration
    /// Streaming mode: the longest pause before reconnecting, before jitter (default 60 s).
    public var maximumReconnectDelay: Duration
    /// Streaming mode: how long a stream may stay silent before it counts as dropped (default 75 s; servers send
    /// a keep-alive comment at least every 30 s).
    public var streamIdleTimeout: Duration
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
    ///   - bootstrapOverride: Whether a bootstrap wins over persisted toggles.
    ///   - connectionID: A connection id to pin, or `nil` for a new one per client.
    ///   - minimumReconnectDelay: Streaming mode: the first pause before reconnecting.
    ///   - maximumReconnectDelay: Streaming mode: the longest pause before reconnecting.
    ///   - streamIdleTimeout: Streaming mode: how long a stream may stay silent.
    ///   - now: The source of dates for timestamps.
    ///   - clock: The clock waits are measured on.
    public init(
        timeout: Duration = .seconds(10), maximumResponseBytes: Int = 16 << 20,
        maximumBackoffMultiplier: Int = 10, storageDirectory: URL? = nil, bootstrapOverride: Bool = true,
        connectionID: String? = nil, minimumReconnectDelay: Duration = .seconds(1),
        maximumReconnectDelay: Duration = .seconds(60), streamIdleTimeout: Duration = .seconds(75),
        now: @escaping @Sendable () -> Date = { Date() }, clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumBackoffMultiplier = max(1, maximumBackoffMultiplier)
        self.storageDirectory = storageDirectory
        self.bootstrapOverride = bootstrapOverride
        self.connectionID = connectionID
        self.minimumReconnectDelay = max(.milliseconds(1), minimumReconnectDelay)
        self.maximumReconnectDelay = max(self.minimumReconnectDelay, maximumReconnectDelay)
        self.streamIdleTimeout = max(.seconds(1), streamIdleTimeout)
        self.now = now
        self.clock = clock
    }
}
