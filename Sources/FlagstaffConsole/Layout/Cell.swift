/// One column of the console's screen grid.
///
/// A wide character (CJK, emoji) occupies two cells: the first holds the character with `width == 2`,
/// the second is a continuation cell with `width == 0` that the backend never draws.
package struct Cell: Sendable, Hashable {
    /// The character drawn in this cell (a whole grapheme cluster, combining marks included).
    package var character: Character
    /// Columns taken: 1, 2 for the head of a wide character, 0 for the continuation of one.
    package var width: Int8
    /// Colour and attributes.
    package var style: CellStyle

    /// Creates a cell.
    /// - Parameters:
    ///   - character: the character.
    ///   - width: 1, 2 (wide head) or 0 (continuation).
    ///   - style: colour and attributes.
    package init(character: Character, width: Int8 = 1, style: CellStyle = .plain) {
        self.character = character
        self.width = width
        self.style = style
    }

    /// A blank cell in the default style.
    package static let blank = Cell(character: " ")

    /// The foreground colour (shorthand for `style.foreground`).
    package var foreground: ConsoleColor { style.foreground }
    /// Whether the cell is bold.
    package var bold: Bool { style.bold }
    /// Whether the cell is underlined.
    package var underline: Bool { style.underline }
    /// Whether the cell is in reverse video.
    package var reverse: Bool { style.reverse }
}
