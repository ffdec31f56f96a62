import Flagstaff
import Foundation

/// How an override's expiry reads in text output.
enum ExpiryText {
    /// `until 2026-12-01T10:00:00Z, 2h 5m left`.
    static func until(_ expiry: OverrideExpiry, now: Date) -> String {
        "until \(CommandClock.text(expiry.expiresAt)), \(left(expiry, now: now)) left"
    }

    /// `2h 5m`: the time left, rounded down.
    static func left(_ expiry: OverrideExpiry, now: Date) -> String {
        OverrideExpiry.shortText(expiry.timeLeft(at: now))
    }
}
