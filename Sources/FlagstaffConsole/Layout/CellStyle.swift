/// How a cell is drawn: a foreground colour and three attributes.
package struct CellStyle: Sendable, Hashable {
    /// The foreground colour (`.default` = the terminal's own).
    package var foreground: ConsoleColor
    /// Bold text.
    package var bold: Bool
    /// Underlined text.
    package var underline: Bool
    /// Reverse video (the selected row).
    package var reverse: Bool

    /// Creates a style.
    /// - Parameters:
    ///   - foreground: the colour, `.default` unless given.
    ///   - bold: bold text.
    ///   - underline: underlined text.
    ///   - reverse: reverse video.
    package init(
        foreground: ConsoleColor = .default, bold: Bool = false, underline: Bool = false, reverse: Bool = false
    ) {
        self.foreground = foreground
        self.bold = bold
        self.underline = underline
        self.reverse = reverse
    }

    /// The terminal's default look.
    package static let plain = CellStyle()

    /// This style with reverse video set or cleared.
    /// - Parameter on: whether reverse video is on.
    /// - Returns: the modified style.
    package func reversed(_ on: Bool = true) -> CellStyle {
        var copy = self
        copy.reverse = on
        return copy
    }
}
