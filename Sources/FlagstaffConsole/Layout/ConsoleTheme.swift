/// The styles the layout uses, with colours dropped when colour is off.
///
/// Without colour every state stays readable: the ON/OFF column and the underline carry the meaning.
struct ConsoleTheme {
    let useColor: Bool

    /// A flag's label and value: green ON / red OFF, underlined and bold when overridden.
    func value(_ on: Bool, overridden: Bool) -> CellStyle {
        CellStyle(foreground: color(on ? .green : .red), bold: overridden, underline: overridden)
    }

    /// A typed setting's label and value: the value's colour for a boolean setting, else the terminal's own;
    /// underlined and bold when overridden.
    func value(of setting: ConsoleSetting, overridden: Bool) -> CellStyle {
        if setting.isBoolean { return value(setting.value == .on, overridden: overridden) }
        return CellStyle(bold: overridden, underline: overridden)
    }

    /// Search-match highlight inside a label.
    func highlight(base: CellStyle) -> CellStyle {
        var style = base
        style.foreground = color(.cyan)
        style.bold = true
        if !useColor { style.reverse = !base.reverse }
        return style
    }

    /// The requires-restart marker.
    var restartMarker: CellStyle { CellStyle(foreground: color(.yellow), bold: true) }
    /// Group rows.
    var group: CellStyle { CellStyle(bold: true) }
    /// Titles and emphasised text.
    var strong: CellStyle { CellStyle(bold: true) }
    /// Warnings and one-shot messages.
    var warning: CellStyle { CellStyle(foreground: color(.yellow), bold: true) }
    /// Remote-source information.
    var remote: CellStyle { CellStyle(foreground: color(.blue)) }
    /// Greyed-out text (orphan overrides).
    var greyed: CellStyle { CellStyle(foreground: color(.grey)) }
    /// Plain text.
    var plain: CellStyle { .plain }

    private func color(_ color: ConsoleColor) -> ConsoleColor { useColor ? color : .default }
}
