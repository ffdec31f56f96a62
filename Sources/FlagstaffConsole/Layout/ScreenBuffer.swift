import Flagstaff

/// A grid of styled cells: what the console wants on screen, independent of any terminal.
///
/// The layout renders a ``ConsoleState`` into a buffer; the ncurses backend draws only the cells that differ
/// from the previous buffer; tests read text and styles back from it. Text written with ``put(_:row:column:style:maxWidth:)``
/// must already be sanitised (see ``TextSanitizer``).
package struct ScreenBuffer: Sendable, Equatable {
    /// Number of columns.
    package let width: Int
    /// Number of rows.
    package let height: Int
    /// Row-major cells, `width * height` of them.
    package private(set) var cells: [Cell]

    /// Creates a blank buffer.
    /// - Parameters:
    ///   - width: columns (negative values count as 0).
    ///   - height: rows (negative values count as 0).
    package init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    /// The cell at a position.
    /// - Parameters:
    ///   - row: 0-based row.
    ///   - column: 0-based column.
    /// - Returns: the cell, or a blank cell outside the grid.
    package func cell(row: Int, column: Int) -> Cell {
        guard row >= 0, row < height, column >= 0, column < width else { return .blank }
        return cells[row * width + column]
    }

    /// Writes text starting at a position, clipped to `maxWidth` columns and to the grid.
    ///
    /// A wide character that does not fit entirely is replaced by a blank; zero-width characters are skipped
    /// (they are only expected inside grapheme clusters, which count as one character).
    /// - Parameters:
    ///   - text: sanitised text.
    ///   - row: 0-based row; rows outside the grid write nothing.
    ///   - column: 0-based starting column.
    ///   - style: the style for every written cell.
    ///   - maxWidth: the most columns to use; `nil` means up to the right edge.
    /// - Returns: the column after the last one written.
    @discardableResult
    package mutating func put(_ text: String, row: Int, column: Int, style: CellStyle = .plain, maxWidth: Int? = nil)
        -> Int
    {
        guard row >= 0, row < height else { return column }
        let limit = min(width, maxWidth.map { column + max(0, $0) } ?? width)
        var x = column
        for character in text {
            if x >= limit { break }
            let w = DisplayWidth.of(character)
            if w == 0 { continue }
            if x < 0 {
                x += w
                continue
            }
            if w == 2 && x + 1 >= limit {
                set(row: row, column: x, Cell(character: " ", width: 1, style: style))
                x += 1
                break
            }
            set(row: row, column: x, Cell(character: character, width: Int8(w), style: style))
            if w == 2 { set(row: row, column: x + 1, Cell(character: " ", width: 0, style: style)) }
            x += w
        }
        return x
    }

    /// Fills columns `from..<to` of a row with blanks in a style.
    /// - Parameters:
    ///   - row: 0-based row.
    ///   - from: first column.
    ///   - to: column after the last one (clipped to the width).
    ///   - style: the style of the blanks.
    package mutating func fill(row: Int, from: Int = 0, to: Int? = nil, style: CellStyle = .plain) {
        guard row >= 0, row < height else { return }
        let end = min(width, to ?? width)
        var x = max(0, from)
        while x < end {
            set(row: row, column: x, Cell(character: " ", width: 1, style: style))
            x += 1
        }
    }

    /// Applies a change to the style of columns `from..<to` of a row, keeping the characters.
    /// - Parameters:
    ///   - row: 0-based row.
    ///   - from: first column.
    ///   - to: column after the last one.
    ///   - change: the change to apply to each cell's style.
    package mutating func restyle(row: Int, from: Int, to: Int, _ change: (inout CellStyle) -> Void) {
        guard row >= 0, row < height else { return }
        for x in max(0, from)..<max(max(0, from), min(width, to)) {
            change(&cells[row * width + x].style)
        }
    }

    /// The text of one row as a string (continuation cells skipped, trailing blanks kept).
    /// - Parameter row: 0-based row.
    /// - Returns: the row's characters, or `""` outside the grid.
    package func text(row: Int) -> String {
        guard row >= 0, row < height else { return "" }
        var result = ""
        for x in 0..<width {
            let cell = cells[row * width + x]
            if cell.width != 0 { result.append(cell.character) }
        }
        return result
    }

    /// Every row's text joined by newlines, with trailing blanks trimmed (handy in test failure messages).
    package var text: String {
        (0..<height).map { row -> String in
            var line = text(row: row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Finds the first occurrence of `needle` on screen.
    /// - Parameter needle: the text to look for (compared character by character within a row).
    /// - Returns: the row and the starting column, or `nil` when absent.
    package func find(_ needle: String) -> (row: Int, column: Int)? {
        for row in 0..<height {
            if let column = find(needle, inRow: row) { return (row, column) }
        }
        return nil
    }

    /// Finds `needle` within one row.
    /// - Parameters:
    ///   - needle: the text to look for.
    ///   - row: 0-based row.
    /// - Returns: the starting column, or `nil` when absent.
    package func find(_ needle: String, inRow row: Int) -> Int? {
        let target = Array(needle)
        guard !target.isEmpty, row >= 0, row < height else { return nil }
        var columns: [Int] = []
        var characters: [Character] = []
        for x in 0..<width {
            let cell = cells[row * width + x]
            if cell.width != 0 {
                columns.append(x)
                characters.append(cell.character)
            }
        }
        guard characters.count >= target.count else { return nil }
        for start in 0...(characters.count - target.count)
        where characters[start..<start + target.count].elementsEqual(target) {
            return columns[start]
        }
        return nil
    }

    /// Stores a cell, blanking the other half of any wide character it overwrites.
    private mutating func set(row: Int, column: Int, _ cell: Cell) {
        guard column >= 0, column < width else { return }
        let index = row * width + column
        let old = cells[index]
        if old.width == 0, column > 0, cell.width != 0 {
            cells[index - 1] = Cell(character: " ", width: 1, style: cells[index - 1].style)
        }
        if old.width == 2, cell.width != 2, column + 1 < width {
            cells[index + 1] = Cell(character: " ", width: 1, style: cells[index + 1].style)
        }
        cells[index] = cell
    }
}
