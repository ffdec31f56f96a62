import Foundation

/// Reads the times the command line is given (`set --until`, `history --since`, `FLAGSTAFF_NOW`): an RFC 3339 date and time with a
/// zone, `2026-12-01T10:00:00Z`, `2026-12-01T12:00:00.5+02:00`.
///
/// Written by hand because `ISO8601DateFormatter` changes impossible times instead of refusing them (`02-30`
/// becomes March 2, an offset `+99:00` is read as `+09:00`). Years have four digits or more (a longer year is
/// read, so that a caller can say it is out of range); `T` or `t`, `Z` or `z`; an offset `±HH:MM` or `±HHMM` up to
/// 23:59; any number of fraction digits. A leap second (`:60`) is refused: a `Date` cannot hold it.
package enum ISO8601Time {
    /// Why a text is not a time.
    package struct Refusal: Error {
        /// What is wrong, e.g. `there is no 2030-02-30 (February 2030 has 28 days)`; empty when the text is not a
        /// time at all.
        package var reason: String

        package init(reason: String) { self.reason = reason }
    }

    /// Reads `text`.
    /// - Throws: ``Refusal`` saying what is impossible (the day, hour, minute, second or offset), or with an empty
    ///   reason when the text does not have the shape of a time.
    package static func parse(_ text: String) throws(Refusal) -> Date {
        let bytes = Array(text.utf8)
        var index = 0
        let shape = Refusal(reason: "")
        func digits(_ count: Int) throws(Refusal) -> Int {
            guard index + count <= bytes.count else { throw shape }
            var value = 0
            for offset in 0..<count {
                let digit = bytes[index + offset] &- UInt8(ascii: "0")
                guard digit < 10 else { throw shape }
                value = value * 10 + Int(digit)
            }
            index += count
            return value
        }
        func expect(_ allowed: String) throws(Refusal) {
            guard index < bytes.count, allowed.utf8.contains(bytes[index]) else { throw shape }
            index += 1
        }
        var yearDigits = 0
        while index + yearDigits < bytes.count, bytes[index + yearDigits] &- UInt8(ascii: "0") < 10 {
            yearDigits += 1
        }
        guard (4...9).contains(yearDigits) else { throw shape }
        let year = try digits(yearDigits)
        try expect("-")
        let month = try digits(2)
        try expect("-")
        let day = try digits(2)
        try expect("Tt")
        let hour = try digits(2)
        try expect(":")
        let minute = try digits(2)
        try expect(":")
        let second = try digits(2)
        var fraction = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale = 0.1
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                fraction += Double(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { throw shape }
        }
        guard index < bytes.count else { throw shape }
        var offset = 0
        let offsetStart = index
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            let offsetHour = try digits(2)
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
            let offsetMinute = try digits(2)
            let offsetText = String(decoding: bytes[offsetStart..<index], as: UTF8.self)
            guard offsetHour <= 23, offsetMinute <= 59 else {
                throw Refusal(reason: "the offset \(offsetText) is not a time zone (at most ±23:59)")
            }
            offset = sign * (offsetHour * 3600 + offsetMinute * 60)
        default:
            throw shape
        }
        guard index == bytes.count else { throw shape }
        let date = String(decoding: bytes[0..<(yearDigits + 6)], as: UTF8.self)
        guard (1...12).contains(month) else { throw Refusal(reason: "there is no month \(month) in \(date)") }
        let days = CivilDate.daysInMonth(year: year, month: month)
        guard (1...days).contains(day) else {
            throw Refusal(reason: "there is no \(date) (\(Self.monthNames[month - 1]) \(year) has \(days) days)")
        }
        guard hour <= 23 else { throw Refusal(reason: "there is no hour \(hour) (hours are 00 to 23)") }
        guard minute <= 59 else { throw Refusal(reason: "there is no minute \(minute) (minutes are 00 to 59)") }
        guard second <= 59 else {
            throw Refusal(reason: "there is no second \(second) here (seconds are 00 to 59; leap seconds are not kept)")
        }
        let seconds = CivilDate.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds - offset) + fraction)
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
}
