import Flagstaff

/// Fitting text into few columns: word wrapping, and shortening paths rather than the words after them.
extension ConsoleLayout {
    /// `text` wrapped at spaces into lines of at most `width` columns; a word longer than a line is broken.
    /// - Parameters:
    ///   - text: one paragraph (no line breaks).
    ///   - width: columns per line (at least 1).
    /// - Returns: the lines, without trailing spaces; one empty line for empty text.
    static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        // Empty "words" are the extra spaces of a run: kept inside a line, dropped at its start.
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if word.isEmpty, lineWidth == 0 { continue }
            var word = Substring(word)
            var wordWidth = DisplayWidth.of(String(word))
            if lineWidth > 0, lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
                continue
            }
            if lineWidth > 0 { lines.append(line) }
            line = ""
            if word.isEmpty { continue }
            lineWidth = 0
            // A word wider than a line: as many whole lines of it as it takes, the rest starts the next line.
            while wordWidth > width {
                var head = ""
                var headWidth = 0
                for character in word {
                    let w = DisplayWidth.of(character)
                    if headWidth + w > width { break }
                    head.append(character)
                    headWidth += w
                }
                if head.isEmpty { break }  // a character wider than the line: give up breaking
                lines.append(head)
                word = word.dropFirst(head.count)
                wordWidth -= headWidth
            }
            line = String(word)
            lineWidth = wordWidth
        }
        if lineWidth > 0 || lines.isEmpty { lines.append(line) }
        return lines
    }

    /// `text` with each file path (a word with a `/` longer than `longerThan` columns) shortened to its first
    /// directory and its file name (`/home/…/overrides.json`), or with `fileNameOnly` to its file name
    /// (`…/overrides.json`), so that what follows the path — an error's reason — keeps its room.
    static func abbreviatingPaths(
        _ text: String, longerThan limit: Int = 24, fileNameOnly: Bool = false, ellipsis: String
    ) -> String {
        text.split(separator: " ", omittingEmptySubsequences: false).map { word -> String in
            guard word.contains("/"), DisplayWidth.of(String(word)) > limit else { return String(word) }
            var components = word.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard components.count > (fileNameOnly ? 2 : 3) else { return String(word) }
            let last = components.removeLast()
            if fileNameOnly { return ellipsis + "/" + last }
            let first = components[0].isEmpty ? "/" + components[1] : components[0]
            return first + "/" + ellipsis + "/" + last
        }.joined(separator: " ")
    }

    /// The message cut into at most `maxLines` lines of `width` columns, never dropping its end before its
    /// middle: wrapped as it is when it fits; else with its paths shortened (to their first directory and file
    /// name, then to the file name); else still wrapped, the last line ending with an ellipsis.
    static func messageLines(_ text: String, width: Int, maxLines: Int, ellipsis: String) -> [String] {
        let maxLines = max(1, maxLines)
        var lines = wrap(text, width: width)
        if lines.count <= maxLines { return lines }
        for fileNameOnly in [false, true] {
            lines = wrap(abbreviatingPaths(text, fileNameOnly: fileNameOnly, ellipsis: ellipsis), width: width)
            if lines.count <= maxLines { return lines }
        }
        var kept = Array(lines.prefix(maxLines))
        let last = kept[maxLines - 1]
        let room = max(0, width - DisplayWidth.of(ellipsis))
        var cut = ""
        var used = 0
        for character in last {
            let w = DisplayWidth.of(character)
            if used + w > room { break }
            cut.append(character)
            used += w
        }
        kept[maxLines - 1] = cut + ellipsis
        return kept
    }
}
