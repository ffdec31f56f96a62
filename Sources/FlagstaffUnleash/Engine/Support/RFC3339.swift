import Flagstaff
import Foundation

/// Parses and formats RFC 3339 timestamps (`2022-01-29T13:00:00.000Z`, `2022-01-22T13:00:00+02:00`).
///
/// A small hand-written parser instead of a `DateFormatter`: it is exact (same text, same `Date`), thread-safe
/// and fast, which matters because `currentTime` arrives with every context.
enum RFC3339 {
    /// Parses `text`; `nil` unless it is a full date-time with a `Z`, `±HH:MM` or `±HHMM` offset.
    ///
    /// Accepts what Unleash's reference engine accepts in contexts: a year of one to four digits (or signed), `T`,
    /// `t` or a space between date and time, `Z` or `z`, any number of fraction digits, a leap second; not `-00:00`.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<width {
                let byte = bytes[index + offset]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += width
            return value
        }
        func expect(_ allowed: [UInt8]) -> Bool {
            guard index < bytes.count, allowed.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        // The year as chrono (the reference engine's date library) reads it: one to four digits, or a sign and
        // any number of digits.
        var yearSign = 1
        var signed = false
        if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
            yearSign = bytes[index] == 45 ? -1 : 1
            signed = true
            index += 1
        }
        let yearStart = index
        var unsignedYear = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57, index - yearStart < 9 {
            unsignedYear = unsignedYear * 10 + Int(bytes[index] - 48)
            index += 1
        }
        let yearDigits = index - yearStart
        guard yearDigits >= 1, signed || yearDigits <= 4 else { return nil }
        let year = yearSign * unsignedYear
        guard expect([45]), let month = number(2), expect([45]), let day = number(2),
            expect([84, 116, 32]), let hour = number(2), expect([58]), let minute = number(2), expect([58]),
            let second = number(2)
        else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month), hour < 24,
            minute < 60, second <= 60
        else { return nil }
        var fraction = 0.0
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            var scale = 0.1
            let start = index
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offsetSeconds = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == 90 || bytes[index] == 122 {
            index += 1
        } else if bytes[index] == 43 || bytes[index] == 45 {
            let sign = bytes[index] == 45 ? -1 : 1
            index += 1
            guard let offsetHour = number(2) else { return nil }
            if index < bytes.count, bytes[index] == 58 { index += 1 }
            guard let offsetMinute = number(2), offsetHour < 24, offsetMinute < 60 else { return nil }
            // chrono refuses "-00:00" (RFC 3339's "offset unknown").
            guard !(sign < 0 && offsetHour == 0 && offsetMinute == 0) else { return nil }
            offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = CivilDate.days(year: year, month: month, day: day)
        // A leap second (:60) sorts just before the next minute, as chrono keeps it.
        let wholeSecond = min(second, 59)
        if second == 60 { fraction = 0.999_999 + fraction / 1_000_000 }
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + wholeSecond - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Formats `date` as UTC with milliseconds, e.g. `2022-01-29T13:00:00.000Z`.
    static func format(_ date: Date) -> String { CivilDate.timestampText(date) }

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
