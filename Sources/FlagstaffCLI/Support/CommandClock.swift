import Flagstaff
import Foundation

/// The date and time the command line works with (override expiry, `list`'s time left): the system's, or, when
/// the environment sets `FLAGSTAFF_NOW` (a test hook, see docs/testing.md), that fixed time.
enum CommandClock {
    /// The environment variable that fixes the command's time: an ISO 8601 time such as `2026-12-01T10:00:00Z`.
    static let variable = "FLAGSTAFF_NOW"

    /// A clock that always reads the same date.
    struct Fixed: WallClock {
        /// The date.
        let date: Date
    }

    /// The wall clock for a command run with `environment`.
    /// - Throws: `CLIFailure.usage` naming `FLAGSTAFF_NOW` when it is set but not an ISO 8601 time.
    static func wallClock(environment: [String: String]) throws -> any WallClock {
        guard let text = environment[variable] else { return SystemWallClock() }
        do {
            return Fixed(date: try ISO8601Time.parse(text))
        } catch {
            throw CLIFailure.usage(
                "\(variable)='\(TerminalText.safe(text))': \(error.reason.isEmpty ? "" : error.reason + "; ")expected an ISO 8601 time like 2026-12-01T10:00:00Z (a test hook that fixes the command's clock)"
            )
        }
    }

    /// Reads an ISO 8601 date and time with a zone (`Z` or `+02:00`), seconds optional fractions:
    /// `2026-12-01T10:00:00Z`, `2026-12-01T12:00:00.5+02:00`. `nil` for anything else, an impossible time included
    /// (``ISO8601Time`` says why).
    static func time(_ text: String) -> Date? {
        try? ISO8601Time.parse(text)
    }

    /// `2026-12-01T10:00:00Z`: a time as the command line prints it, UTC, whole seconds.
    static func text(_ date: Date) -> String {
        // `2026-12-01T10:00:00.123Z` without its milliseconds (rounded down, as they are).
        let text = CivilDate.timestampText(date)
        return text.dropLast(5) + "Z"
    }
}
