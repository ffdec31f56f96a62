import CNCurses

extension ConsoleKey {
    /// Decodes a function-key code as returned by ncurses' `get_wch` with status `KEY_CODE_YES`.
    /// - Parameter keyCode: the ncurses key code (`KEY_UP`, `KEY_NPAGE`, …).
    /// - Returns: the key, or `nil` for codes the console does not use (`KEY_RESIZE` is handled by the caller,
    ///   which knows the new size).
    package static func decode(keyCode: Int32) -> ConsoleKey? {
        switch keyCode {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME, KEY_FIND, KEY_A1: return .home
        case KEY_END, KEY_SELECT, KEY_C1: return .end
        case KEY_BTAB: return .backTab
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case fs_key_f1(): return .f1
        default: return nil
        }
    }

    /// Decodes a character as returned by ncurses' `get_wch` with status `OK`.
    /// - Parameter value: the wide character's code point.
    /// - Returns: the key, or `nil` for values that are not valid Unicode scalars or not used by the console.
    package static func decode(character value: UInt32) -> ConsoleKey? {
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 27: return .escape
        case 1...26:
            guard let scalar = Unicode.Scalar(value + 96) else { return nil }
            return .control(Character(scalar))
        case 0, 28...31: return nil
        default:
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .control else { return nil }
            return .character(Character(scalar))
        }
    }
}
