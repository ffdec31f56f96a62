import Foundation

/// When an override stops applying. Kept by the store beside the override (a top-level `"expiry"` member of the
/// store file); an override without one is permanent.
///
/// From ``expiresAt`` on, no registry applies the override (a timer republishes the member at that moment), and
/// the next write to the store by any process removes it, journaled with origin ``ChangeOrigin/expiry``.
public struct OverrideExpiry: Sendable, Hashable {
    /// The moment the override stops applying.
    public var expiresAt: Date
    /// When the override was set with this expiry.
    public var setAt: Date

    /// Creates an expiry.
    /// - Parameters:
    ///   - expiresAt: the moment the override stops applying.
    ///   - setAt: when it was set.
    public init(expiresAt: Date, setAt: Date) {
        self.expiresAt = expiresAt
        self.setAt = setAt
    }

    /// The times a store file can hold (its timestamps have four-digit years): `0000-01-01T00:00:00.000Z` to
    /// `9999-12-31T23:59:59.999Z`. An expiry outside is refused when set.
    package static let storableRange: ClosedRange<Date> =
        Date(
            timeIntervalSince1970: Double(CivilDate.days(year: 0, month: 1, day: 1) * 86_400))...Date(
            timeIntervalSince1970: Double(CivilDate.days(year: 10_000, month: 1, day: 1) * 86_400) - 0.001)

    /// `from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z`: ``storableRange`` in words, for messages.
    package static let storableRangeText = "from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z"

    /// Whether the override no longer applies at `date`.
    public func isExpired(at date: Date) -> Bool { date >= expiresAt }

    /// Seconds left at `date` (zero once expired).
    public func timeLeft(at date: Date) -> TimeInterval { max(0, expiresAt.timeIntervalSince(date)) }

    /// A short English rendering of a span of time, rounded down to its largest unit pair: `45s`, `59m`, `3h 5m`,
    /// `2d 4h`; `0s` for nothing left.
    /// - Parameter interval: seconds.
    package static func shortText(_ interval: TimeInterval) -> String {
        let seconds = Int(max(0, interval).rounded(.down))
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<86_400:
            let minutes = seconds / 60 % 60
            return minutes == 0 ? "\(seconds / 3600)h" : "\(seconds / 3600)h \(minutes)m"
        default:
            let hours = seconds / 3600 % 24
            return hours == 0 ? "\(seconds / 86_400)d" : "\(seconds / 86_400)d \(hours)h"
        }
    }
}
