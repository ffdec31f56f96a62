import Foundation

/// Proleptic Gregorian dates as days since 1970-01-01 and back (Howard Hinnant's `days_from_civil` and
/// `civil_from_days`), for the hand-written timestamp readers and writers (the history journal, Unleash's RFC 3339
/// dates) that must not depend on `Calendar` or the time zone.
package enum CivilDate {
    /// `date` in UTC with milliseconds, e.g. `2022-01-29T13:00:00.000Z` (rounded down to the millisecond).
    package static func timestampText(_ date: Date) -> String {
        // Held within about ±3 million years, where milliseconds fit an `Int` (a NaN reads as 1970).
        let seconds = date.timeIntervalSince1970
        let held = seconds.isNaN ? 0 : min(max(seconds, -1e14), 1e14)
        // `JournalTime` reads `…07.407Z` as whole seconds + 407 / 1000 (then a `Date`, which counts from 2001), which
        // can land a hair below 7.407, where `* 1000` rounded down would give 406: the nearest millisecond counts
        // unless the reader's date for it is after `date`.
        var milliseconds = Int((held * 1000).rounded())
        let whole = floorDivide(milliseconds, 1000)
        if Date(timeIntervalSince1970: Double(whole) + Double(milliseconds - whole * 1000) / 1000) > date {
            milliseconds -= 1
        }
        let days = floorDivide(milliseconds, 86_400_000)
        let inDay = milliseconds - days * 86_400_000
        let (year, month, day) = Self.date(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(inDay / 3_600_000, 2)):"
            + "\(pad(inDay / 60_000 % 60, 2)):\(pad(inDay / 1000 % 60, 2)).\(pad(inDay % 1000, 3))Z"
    }

    /// Days since 1970-01-01 of `year`-`month`-`day` (negative before).
    package static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `count` days after 1970-01-01 (before, when negative).
    package static func date(fromDays count: Int) -> (year: Int, month: Int, day: Int) {
        let z = count + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The days in `month` (1…12) of `year`: 28 to 31.
    package static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `a / b` rounded towards minus infinity (`b > 0`).
    package static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
