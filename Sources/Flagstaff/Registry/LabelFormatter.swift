/// Turns identifiers into display labels: `newURLFormat` → "New URL Format", `list.infiniteScroll` →
/// "Infinite Scroll", `dark_mode` → "Dark Mode".
public enum LabelFormatter {
    /// Humanises an identifier: splits camelCase, acronyms, digits, `_`, `-` and `.` (keeping only the last
    /// dot-separated component) into capitalised words.
    /// - Parameter identifier: a property name or key.
    /// - Returns: the label.
    public static func humanize(_ identifier: String) -> String {
        let name = identifier.split(separator: ".").last.map(String.init) ?? identifier
        var words: [String] = []
        var current = ""
        let chars = Array(name)
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for (i, c) in chars.enumerated() {
            if c == "_" || c == "-" || c == " " { flush(); continue }
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
}
