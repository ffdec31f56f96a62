/// A name a client chose (its app name, its SDK), as the server keeps, lists and logs it: at most
/// ``maximumScalars`` Unicode scalars, then `…` and the length it had, and with every character that could forge or
/// scramble a log line (control characters, line and paragraph separators, bidirectional overrides) replaced by
/// U+FFFD.
///
/// Names come from requests (a header of up to 80 KB, a body of up to the body limit): without the cut, 1,000
/// requests with a 60 KB `appName` wrote 60 MB of log lines in 4 s, and the 1,000 names the tracker keeps could hold
/// a gigabyte. Two names that differ only after the cut count as one client.
enum ClientName {
    /// The most scalars of a name kept.
    static let maximumScalars = 100

    /// `name` cut and cleaned. A short name of printable ASCII (nearly every name) is returned as it is, without a
    /// copy: every request, also the polls answered before the router, asks.
    static func bounded(_ name: String) -> String {
        let utf8 = name.utf8
        if utf8.count <= maximumScalars, utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return name }
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in name.unicodeScalars {
            if count == maximumScalars { return String(kept) + "… (\(utf8.count) bytes)" }
            kept.append(isUnsafe(scalar) ? "\u{FFFD}" : scalar)
            count += 1
        }
        return String(kept)
    }

    /// Whether a scalar could change how a log line reads: a control character (C0, DEL, C1), a line or paragraph
    /// separator, or a bidirectional control.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
            return true
        default:
            return false
        }
    }
}
