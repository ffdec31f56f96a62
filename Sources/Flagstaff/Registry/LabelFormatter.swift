/// Turns identifiers into display labels: `newURLFormat` → "New URL Format", `list.infiniteScroll` →
/// "Infinite Scroll", `dark_mode` → "Dark Mode".
package enum LabelFormatter {
    /// Humanises an identifier: splits camelCase, acronyms, digits, `_`, `-` and `.` (keeping only the last
    /// dot-separated component) into capitalised words.
    /// - Parameter identifier: a property name or key.
    /// - Returns: the label.
    package static func humanize(_ identifier: String) -> String {
        if let ascii = humanizeASCII(identifier) { return ascii }
        let name = identifier.split(separator: ".").last.map(String.init) ?? identifier
        var words: [String] = []
        var current = ""
        let chars = Array(name)
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for (i, c) in chars.enumerated() {
            if c == "_" || c == "-" || c == " " {
                flush()
                continue
            }
            if let last = current.last {
                let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                let boundary =
                    (last.isLowercase && c.isUppercase)
                    || (last.isUppercase && c.isUppercase && (next?.isLowercase ?? false))
                    || (last.isLetter && c.isNumber) || (last.isNumber && c.isLetter)
                if boundary { flush() }
            }
            current.append(c)
        }
        flush()
        return words.map { word in
            guard let first = word.first else { return word }
            return first.uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }

    /// The same rules over ASCII bytes, without `Character` handling; `nil` if the identifier is not ASCII.
    private static func humanizeASCII(_ identifier: String) -> String? {
        var utf8 = Array(identifier.utf8)
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        if let dot = utf8.lastIndex(of: UInt8(ascii: ".")) { utf8.removeSubrange(...dot) }
        func kind(_ byte: UInt8) -> UInt8 {  // 1 lower, 2 upper, 3 digit, 0 separator, 4 other
            switch byte {
            case 97...122: return 1
            case 65...90: return 2
            case 48...57: return 3
            case 95, 45, 32: return 0
            default: return 4
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 8)
        var wordLength = 0
        for (index, byte) in utf8.enumerated() {
            let current = kind(byte)
            if current == 0 {
                wordLength = 0
                continue
            }
            if wordLength > 0 {
                let last = kind(utf8[index - 1])
                let next = index + 1 < utf8.count ? kind(utf8[index + 1]) : 0
                let letter: (UInt8) -> Bool = { $0 == 1 || $0 == 2 }
                let boundary =
                    (last == 1 && current == 2) || (last == 2 && current == 2 && next == 1)
                    || (letter(last) && current == 3) || (last == 3 && letter(current))
                if boundary { wordLength = 0 }
            }
            if wordLength == 0 {
                if !out.isEmpty { out.append(32) }
                out.append(current == 1 ? byte - 32 : byte)
            } else {
                out.append(byte)
            }
            wordLength += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
