import Foundation

/// The date and time of day, for what is persisted with absolute times (override expiry, the journal). Injected
/// so tests can move it: `ManualClock` in FlagstaffTesting conforms.
public protocol WallClock: Sendable {
    /// The current date.
    var date: Date { get }
}

/// The system's clock (`Date()`).
public struct SystemWallClock: WallClock {
    /// Creates the system clock.
    public init() {}

    /// The current date.
    public var date: Date { Date() }
}

/// A wall clock that never goes backwards: the latest date read so far in this process. Expiry decisions read
/// through it, so setting the system clock back never brings an expired override back in a running process.
package final class MonotonicWallClock: Sendable {
    private let clock: any WallClock
    private let latest = AnnotatedMutex(Date.distantPast)

    /// Wraps `clock`.
    package init(_ clock: any WallClock) { self.clock = clock }

    /// The later of the clock's date and the latest date read before.
    package func now() -> Date {
        let date = clock.date
        return latest.withLock { latest in
            if date > latest { latest = date }
            return latest
        }
    }
}
