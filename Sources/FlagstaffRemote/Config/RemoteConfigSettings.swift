import Foundation

/// Fetch settings of a ``RemoteConfig``.
public struct RemoteConfigSettings: Sendable, Equatable {
    /// The Firebase default minimum fetch interval: 12 hours.
    public static let defaultMinimumFetchInterval: TimeInterval = 12 * 60 * 60
    /// The Firebase default fetch timeout: 60 seconds.
    public static let defaultFetchTimeout: TimeInterval = 60

    /// How long (seconds) a successful fetch stays fresh: ``RemoteConfig/fetch(expirationDuration:)`` without
    /// an explicit duration makes no request within this interval. Use `0` during development.
    public var minimumFetchInterval: TimeInterval
    /// How long (seconds) one fetch may take before it fails as timed out.
    public var fetchTimeout: TimeInterval

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - minimumFetchInterval: Seconds a fetch stays fresh; default 12 hours, `0` for development.
    ///   - fetchTimeout: Seconds one fetch may take; default 60. Values below 0.001 are raised to 0.001.
    public init(minimumFetchInterval: TimeInterval = Self.defaultMinimumFetchInterval,
                fetchTimeout: TimeInterval = Self.defaultFetchTimeout) {
        self.minimumFetchInterval = max(0, minimumFetchInterval)
        self.fetchTimeout = max(0.001, fetchTimeout)
    }
}

/// The clock and random source a ``RemoteConfig`` uses, injectable for deterministic tests.
public struct RemoteConfigEnvironment: Sendable {
    /// Returns the current time.
    public var now: @Sendable () -> Date
    /// Returns a uniformly distributed number in `0..<1`, used for backoff jitter.
    public var random: @Sendable () -> Double

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - now: The clock.
    ///   - random: The random source (values in `0..<1`).
    public init(now: @escaping @Sendable () -> Date, random: @escaping @Sendable () -> Double) {
        self.now = now
        self.random = random
    }

    /// The system clock and the system random number generator.
    public static let live = RemoteConfigEnvironment(now: { Date() }, random: { Double.random(in: 0..<1) })
}
