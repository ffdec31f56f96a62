import Foundation

/// The journal's timestamps: UTC, milliseconds, `2026-11-23T19:00:41.123Z`, written and read by hand (a date
/// formatter per line would dominate reading a large journal).
package enum JournalTime {
    /// The text of `date`.
    package static func text(_ date: Date) -> String { CivilDate.timestampText(date) }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff]Z`; `nil` for anything else.
    package static func date<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> Date? where Bytes.Element == UInt8 {
        Array(bytes).withUnsafeBufferPointer { date(buffer: $0) }
    }

    /// Reads `YYYY-MM-DDTHH:MM:SS[.fff]Z` in place, to the millisecond; `nil` for anything else, an impossible date
    /// (`02-30`) included.
    static func date(buffer text: UnsafeBufferPointer<UInt8>) -> Date? {
        guard text.count >= 20, text.last == UInt8(ascii: "Z") else { return nil }
        func number(_ start: Int, _ count: Int) -> Int64? {
            var value: Int64 = 0
            for index in start..<(start + count) {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        let separators: [(Int, UInt8)] = [(4, 45), (7, 45), (10, 84), (13, 58), (16, 58)]  // - - T : :
        guard separators.allSatisfy({ text[$0.0] == $0.1 }),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: Int(year), month: Int(month)),
            hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if text.count > 20 {
            // Any number of fraction digits; those past the third are checked, not added. Times are milliseconds
            // wherever they are written, so a time read is one the writer writes back as it was (a fuzz finding: a
            // manifest's `reportedAt` with four fraction digits changed when it was written and read again).
            let count = text.count - 21
            guard text[19] == UInt8(ascii: "."), count > 0, let digits = number(20, min(count, 3)),
                count <= 3 || (23..<(20 + count)).allSatisfy({ text[$0] &- 48 < 10 })
            else { return nil }
            fraction = Double(digits) / pow(10, Double(min(count, 3)))
        }
        let days = Int64(CivilDate.days(year: Int(year), month: Int(month), day: Int(day)))
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        // A leap second on 9999-12-31 would be a time in year 10000, which this reader (four-digit years) refuses:
        // a store that kept it could not be read again.
        guard seconds < Double(CivilDate.days(year: 10_000, month: 1, day: 1)) * 86_400 else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}
