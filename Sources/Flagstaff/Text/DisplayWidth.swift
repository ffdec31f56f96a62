/// Terminal column widths of characters and strings, independent of the C library's locale tables.
///
/// The console lays text out in a grid before any terminal is involved, so it cannot ask `wcwidth(3)` (whose
/// answer depends on the process locale). These rules follow the common `wcwidth` conventions: East Asian
/// wide and fullwidth characters and emoji take two columns; combining marks, zero-width joiners, variation
/// selectors and other default-ignorable characters take none; everything else takes one.
package enum DisplayWidth {
    /// Inclusive ranges of code points that occupy two terminal columns.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
        0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
        0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
        0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
        0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
        0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
        0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// The number of columns a single Unicode scalar occupies: 0, 1 or 2.
    ///
    /// Control characters report 0 here; the console never draws them (see ``TextSanitizer``).
    /// - Parameter scalar: the scalar to measure.
    /// - Returns: its width in terminal columns.
    package static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if value < 0x300 { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control:
            return 0
        default:
            break
        }
        if (0x1160...0x11FF).contains(value) || (0xFE00...0xFE0F).contains(value) || value == 0x200B {
            return 0
        }
        if value >= 0x1100 && isWide(value) { return 2 }
        return 1
    }

    /// The number of columns a character (grapheme cluster) occupies: the widest of its scalars.
    ///
    /// A base letter with combining marks is one column; a CJK ideograph or an emoji sequence is two.
    /// - Parameter character: the character to measure.
    /// - Returns: its width in terminal columns (0 only for a cluster made entirely of zero-width scalars).
    package static func of(_ character: Character) -> Int {
        if character.isASCII {
            guard let value = character.asciiValue else { return 1 }  // "\r\n" is ASCII but has no single value
            return value >= 0x20 && value < 0x7F ? 1 : 0
        }
        var widest = 0
        for scalar in character.unicodeScalars {
            widest = max(widest, of(scalar))
            if widest == 2 { break }
        }
        return widest
    }

    /// The number of columns a string occupies when drawn left to right.
    /// - Parameter text: the string to measure; control characters count as zero.
    /// - Returns: the sum of its characters' widths.
    package static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// Binary search of ``wideRanges``.
    private static func isWide(_ value: UInt32) -> Bool {
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}
