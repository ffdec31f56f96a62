/// A terminal colour as reported by tmux's `capture-pane -e`.
package enum TerminalColor: Sendable, Hashable {
    /// The terminal's default colour (SGR 39 / 49 or never set).
    case `default`
    /// One of the 256 indexed colours (0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white,
    /// 8–15 bright).
    case indexed(Int)
    /// A 24-bit colour.
    case rgb(Int, Int, Int)

    /// Red (index 1 or bright 9).
    package var isRed: Bool { self == .indexed(1) || self == .indexed(9) }
    /// Green (index 2 or bright 10).
    package var isGreen: Bool { self == .indexed(2) || self == .indexed(10) }
    /// Yellow (index 3 or bright 11).
    package var isYellow: Bool { self == .indexed(3) || self == .indexed(11) }
}

/// One character on a captured terminal screen with the attributes it was drawn with.
package struct StyledCharacter: Sendable, Hashable {
    /// The character (a whole grapheme cluster).
    package var character: Character
    /// Foreground colour.
    package var foreground: TerminalColor
    /// Background colour.
    package var background: TerminalColor
    /// Bold (SGR 1).
    package var bold: Bool
    /// Underline (SGR 4).
    package var underline: Bool
    /// Reverse video (SGR 7).
    package var reverse: Bool
}

/// A captured terminal screen: lines of styled characters, parsed from `capture-pane -p -e` output.
///
/// The capture is parsed as one stream: SGR state carries across newlines, parameters combine (`1;4;32`),
/// and 30–37/90–97, 40–47/100–107, `38;5;n`, `38;2;r;g;b`, 39/49, 22/24/27 and 0 are understood. Other
/// escape sequences are skipped. tmux trims trailing blanks, so a line may be shorter than the pane.
package struct TmuxScreen: Sendable, CustomStringConvertible {
    /// The screen's lines, top to bottom.
    package let lines: [[StyledCharacter]]

    /// Parses `capture-pane -p -e` output.
    /// - Parameter capture: the raw capture including escape sequences.
    package init(parsing capture: String) {
        var lines: [[StyledCharacter]] = [[]]
        var state = StyledCharacter(
            character: " ", foreground: .default, background: .default, bold: false, underline: false, reverse: false)
        let characters = Array(capture)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\u{1B}" {
                index += 1
                guard index < characters.count else { break }
                if characters[index] == "[" {
                    index += 1
                    var parameters = ""
                    while index < characters.count, let ascii = characters[index].asciiValue, ascii >= 0x30,
                        ascii <= 0x3F
                    {
                        parameters.append(characters[index])
                        index += 1
                    }
                    while index < characters.count, let ascii = characters[index].asciiValue, ascii >= 0x20,
                        ascii <= 0x2F
                    {
                        index += 1
                    }
                    if index < characters.count, characters[index] == "m" { Self.apply(sgr: parameters, to: &state) }
                    index += 1
                } else if characters[index] == "]" || characters[index] == "P" || characters[index] == "_" {
                    // OSC / DCS / APC: skip to BEL or ST.
                    while index < characters.count, characters[index] != "\u{07}" {
                        if characters[index] == "\u{1B}", index + 1 < characters.count, characters[index + 1] == "\\" {
                            index += 1
                            break
                        }
                        index += 1
                    }
                    index += 1
                } else {
                    index += 1
                }
                continue
            }
            if character == "\n" || character == "\r\n" {
                lines.append([])
            } else if character != "\r" {
                var styled = state
                styled.character = character
                lines[lines.count - 1].append(styled)
            }
            index += 1
        }
        if lines.count > 1, lines[lines.count - 1].isEmpty { lines.removeLast() }
        self.lines = lines
    }

    /// The plain text of a line (empty beyond the last line).
    /// - Parameter index: 0-based line number.
    /// - Returns: the line's characters.
    package func text(line index: Int) -> String {
        guard index >= 0, index < lines.count else { return "" }
        return String(lines[index].map(\.character))
    }

    /// The whole screen as plain text, one line per row.
    package var text: String { (0..<lines.count).map { text(line: $0) }.joined(separator: "\n") }

    /// The plain text, so failure messages show the screen rather than every cell's attributes.
    package var description: String { text }

    /// Whether any line contains `needle`.
    /// - Parameter needle: the text to look for.
    /// - Returns: `true` when present.
    package func contains(_ needle: String) -> Bool { lines.indices.contains { text(line: $0).contains(needle) } }

    /// The first line containing `needle`.
    /// - Parameter needle: the text to look for.
    /// - Returns: the line number, or `nil`.
    package func line(containing needle: String) -> Int? { lines.indices.first { text(line: $0).contains(needle) } }

    /// The styled characters of the first occurrence of `needle`.
    /// - Parameter needle: the text to look for.
    /// - Returns: the characters of the match with their styles, or `nil` when absent.
    package func styled(_ needle: String) -> [StyledCharacter]? {
        let target = Array(needle)
        for line in lines where line.count >= target.count {
            for start in 0...(line.count - target.count)
            where line[start..<start + target.count].map(\.character) == target {
                return Array(line[start..<start + target.count])
            }
        }
        return nil
    }

    /// Applies one SGR parameter list to the current state.
    private static func apply(sgr parameters: String, to state: inout StyledCharacter) {
        let values =
            parameters.isEmpty
            ? [0] : parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
        var index = 0
        while index < values.count {
            let value = values[index]
            switch value {
            case 0:
                state.foreground = .default
                state.background = .default
                state.bold = false
                state.underline = false
                state.reverse = false
            case 1: state.bold = true
            case 4: state.underline = true
            case 7: state.reverse = true
            case 22: state.bold = false
            case 24: state.underline = false
            case 27: state.reverse = false
            case 30...37: state.foreground = .indexed(value - 30)
            case 90...97: state.foreground = .indexed(value - 90 + 8)
            case 39: state.foreground = .default
            case 40...47: state.background = .indexed(value - 40)
            case 100...107: state.background = .indexed(value - 100 + 8)
            case 49: state.background = .default
            case 38, 48:
                var color = TerminalColor.default
                if index + 2 < values.count, values[index + 1] == 5 {
                    color = .indexed(values[index + 2])
                    index += 2
                } else if index + 4 < values.count, values[index + 1] == 2 {
                    color = .rgb(values[index + 2], values[index + 3], values[index + 4])
                    index += 4
                }
                if value == 38 { state.foreground = color } else { state.background = color }
            default: break
            }
            index += 1
        }
    }
}
