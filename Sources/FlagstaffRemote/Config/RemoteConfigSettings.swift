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
    /// How long (seconds) one fetch may take before it fails as timed out. Zero, a negative number or NaN
    /// means the default of 60 s, as in the Firebase SDK.
    public var fetchTimeout: TimeInterval {
        didSet { fetchTimeout = Self.normalizedTimeout(fetchTimeout) }
    }

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - minimumFetchInterval: Seconds a fetch stays fresh; default 12 hours, `0` for development.
    ///   - fetchTimeout: Seconds one fetch may take; default 60. Zero or less (or NaN) means the default.
    public init(
        minimumFetchInterval: TimeInterval = Self.defaultMinimumFetchInterval,
        fetchTimeout: TimeInterval = Self.defaultFetchTimeout
    ) {
        self.minimumFetchInterval = max(0, minimumFetchInterval)
        self.fetchTimeout = Self.normalizedTimeout(fetchTimeout)
    }

    private static func normalizedTimeout(_ seconds: TimeInterval) -> TimeInterval {
        seconds > 0 ? seconds : defaultFetchTimeout
    }
}

/// The time and random sources a ``RemoteConfig`` uses, injectable for deterministic tests.
///
/// Two views of time, because the config both waits and persists dates:
/// - ``clock`` runs every wait: the fetch timeout and the auto-refresh interval
///   (``RemoteConfig/startAutoRefresh(every:activate:)``).
/// - ``now`` gives the wall-clock dates that are compared with, and written to, persisted state: the last
///   fetch time (minimum fetch interval, staleness), the throttle end (backoff) and the attempt and
///   activation times. They are dates because they must survive a restart, which a clock's instants do not.
///
/// In production the two are independent (`ContinuousClock()` and `Date()`). In tests pass one
/// `ManualClock` (module `FlagstaffTesting`) as both, so advancing it moves waits and dates together:
///
/// ```swift
/// let clock = ManualClock()
/// let environment = RemoteConfigEnvironment(clock: clock, now: { clock.date }, random: { 0.5 })
/// ```
public struct RemoteConfigEnvironment: Sendable {
    /// The clock that fetch timeouts and auto-refresh intervals wait on.
    public var clock: any Clock<Duration>
    /// Returns the current wall-clock date, for everything compared with or written to persisted state.
    public var now: @Sendable () -> Date
    /// Returns a uniformly distributed number in `0..<1`, used for backoff jitter.
    public var random: @Sendable () -> Double

    /// Creates an environment.
    ///
    /// - Parameters:
    ///   - clock: The clock waits run on; `ContinuousClock()` by default.
    ///   - now: The wall-clock date source; `Date()` by default.
    ///   - random: The random source (values in `0..<1`); the system generator by default.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.clock = clock
        self.now = now
        self.random = random
    }

    /// `ContinuousClock()`, the system date and the system random number generator.
    public static let live = RemoteConfigEnvironment()

    /// A number of seconds as a `Duration` for a clock, clamped to 0…10⁹ s (`NaN` counts as 0), so settings
    /// out of range never trap.
    static func duration(seconds: TimeInterval) -> Duration {
        guard seconds > 0 else { return .zero }
        return .microseconds(Int64(min(seconds, 1e9) * 1e6))
    }
}
