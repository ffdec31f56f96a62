import Flagstaff

/// The `Date` header's format (IMF-fixdate of RFC 9110, `Sun, 06 Nov 1994 08:49:37 GMT`), computed without
/// Foundation's formatters: the conditional-GET fast path (``NotModifiedHandler``) makes one per second.
package enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The date `seconds` after 1970-01-01 00:00:00 UTC (negative: before it).
    package static func format(secondsSince1970 seconds: Int) -> String {
        let days = CivilDate.floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = CivilDate.date(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = ((days % 7) + 11) % 7
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[weekday]), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(secondOfDay / 3_600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }
}
