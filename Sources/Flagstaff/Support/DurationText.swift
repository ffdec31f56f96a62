/// Reads the durations the command line is given (`set --for`, `history --since`): whole numbers with a unit,
/// `s` (seconds), `m` (minutes), `h` (hours), `d` (days) or `w` (weeks), combinable as `1d12h`.
package enum DurationText {
    /// The longest duration read: 100 years of 366 days.
    package static let longest = 100 * 366 * 86_400

    /// What a duration looks like, for a message that refuses one.
    package static let expected =
        "a duration like 90s, 30m, 2h or 3d: whole numbers with s (seconds), m (minutes), h (hours), d (days) or w (weeks), combinable as 1d12h; more than zero, at most 100 years"

    /// The seconds `text` spans; `nil` when it is not a duration, is zero, or is longer than ``longest``.
    package static func seconds(_ text: String) -> Int? {
        var total = 0
        var number: Int?
        for byte in text.utf8 {
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                let value = (number ?? 0) * 10 + Int(digit)
                guard value <= longest else { return nil }
                number = value
            } else if let unit = unitSeconds(byte), let value = number {
                total += value * unit
                guard total <= longest else { return nil }
                number = nil
            } else {
                return nil
            }
        }
        guard number == nil, total > 0 else { return nil }
        return total
    }

    private static func unitSeconds(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "s"): 1
        case UInt8(ascii: "m"): 60
        case UInt8(ascii: "h"): 3600
        case UInt8(ascii: "d"): 86_400
        case UInt8(ascii: "w"): 604_800
        default: nil
        }
    }
}
