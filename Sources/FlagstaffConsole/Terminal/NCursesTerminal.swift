import CNCurses

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real terminal, through ncursesw's wide-character API.
///
/// Starting it sets the locale from the environment, installs the signal handlers (before ncurses starts, so
/// ncurses keeps its hands off them), starts ncurses in cbreak/noecho/keypad mode with a 25 ms Esc delay and a
/// 100 ms read timeout, and starts colours on the terminal's default background. ``end()`` runs `endwin` and
/// restores the previous signal dispositions; it is called on every exit path of ``FeatureConsole/run()``.
/// Not thread-safe: use it from one thread.
package final class NCursesTerminal: ConsoleTerminal {
    /// Whether colours are on.
    package let supportsColor: Bool
    /// Whether the locale is UTF-8.
    package let supportsUnicode: Bool
    private let signals = SignalMonitor()
    private var previous: ScreenBuffer?
    private var ended = false
    /// A resize read while collecting typeahead, reported by the next ``nextEvent()``.
    private var pendingResize = false
    private var streams: (output: UnsafeMutablePointer<FILE>, input: UnsafeMutablePointer<FILE>)?

    /// Takes over the terminal.
    /// - Parameters:
    ///   - useColor: `false` to draw without colours even when the terminal has them.
    ///   - asciiOnly: `true` to force ASCII glyphs, `false` to force Unicode, `nil` to follow the locale.
    /// - Throws: ``ConsoleError/notATerminal(stream:)`` when stdin or stdout is not a terminal,
    ///   ``ConsoleError/terminalUnavailable(term:)`` when ncurses cannot start.
    package init(useColor: Bool, asciiOnly: Bool?) throws {
        if isatty(STDIN_FILENO) == 0 { throw ConsoleError.notATerminal(stream: "standard input") }
        if isatty(STDOUT_FILENO) == 0 { throw ConsoleError.notATerminal(stream: "standard output") }
        let utf8 = fs_setlocale_is_utf8() != 0
        supportsUnicode = asciiOnly.map { !$0 } ?? utf8
        signals.install()
        if fs_start(100) != 0 {
            signals.uninstall()
            let term = getenv("TERM").map { String(cString: $0) } ?? ""
            throw ConsoleError.terminalUnavailable(term: term)
        }
        supportsColor = useColor && fs_start_colors() != 0
    }

    /// Draws into a file or device instead of the process's terminal, reading no input (for benchmarks: the
    /// cost of turning frames into terminal output, without a terminal). No signal handlers are installed.
    /// - Parameters:
    ///   - outputPath: where the terminal output goes, e.g. `/dev/null`.
    ///   - useColor: whether to draw colours.
    /// - Throws: ``ConsoleError/terminalUnavailable(term:)`` when the file cannot be opened or `TERM` is unknown.
    package init(outputPath: String, useColor: Bool = true) throws {
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        guard let output = fopen(outputPath, "w"), let input = fopen("/dev/null", "r") else {
            throw ConsoleError.terminalUnavailable(term: term)
        }
        supportsUnicode = fs_setlocale_is_utf8() != 0
        if fs_start_on(output, input, 0) != 0 {
            fclose(output)
            fclose(input)
            throw ConsoleError.terminalUnavailable(term: term)
        }
        streams = (output, input)
        supportsColor = useColor && fs_start_colors() != 0
    }

    deinit { end() }

    /// The current size in columns and rows.
    package var size: (width: Int, height: Int) { (Int(fs_cols()), Int(fs_rows())) }

    /// Draws the cells that differ from the previous frame (everything after a resize or ``invalidate()``).
    /// - Parameter buffer: the frame; its size should be the terminal's current size.
    package func draw(_ buffer: ScreenBuffer) {
        guard !ended else { return }
        let old = previous.flatMap { $0.width == buffer.width && $0.height == buffer.height ? $0 : nil }
        if old == nil { fs_clear_all() }
        var text: [wchar_t] = []
        text.reserveCapacity(buffer.width * 2)
        for row in 0..<buffer.height {
            let base = row * buffer.width
            var column = 0
            while column < buffer.width {
                let cell = buffer.cells[base + column]
                if let old, old.cells[base + column] == cell, !touchesChangedWide(old, buffer, base, column) {
                    column += 1
                    continue
                }
                // A run of changed cells with one style.
                let start = column
                let style = cell.style
                text.removeAll(keepingCapacity: true)
                while column < buffer.width {
                    let next = buffer.cells[base + column]
                    if next.style != style { break }
                    if let old, old.cells[base + column] == next, column > start + 8 { break }
                    if next.width != 0 {
                        for scalar in next.character.unicodeScalars { text.append(wchar_t(bitPattern: scalar.value)) }
                    }
                    column += 1
                }
                // Skip a run starting on a continuation cell: its head is always drawn with it.
                if text.isEmpty { continue }
                setStyle(style)
                fs_put(Int32(row), Int32(start), text, Int32(text.count))
            }
        }
        fs_refresh()
        previous = buffer
    }

    /// Forgets the previous frame so the next draw repaints everything.
    package func invalidate() { previous = nil }

    /// Waits up to 100 ms for a key; reports signals first, `nil` when nothing came.
    package func nextEvent() -> ConsoleEvent? {
        if let signal = takeSignal() { return .signal(signal) }
        if pendingResize {
            pendingResize = false
            previous = nil
            return .resize(width: size.width, height: size.height)
        }
        var value: UInt32 = 0
        let status = fs_read(&value)
        if let signal = takeSignal() { return .signal(signal) }
        switch status {
        case KEY_CODE_YES:
            if Int32(value) == KEY_RESIZE {
                previous = nil
                return .resize(width: size.width, height: size.height)
            }
            return ConsoleKey.decode(keyCode: Int32(value)).map { .key($0) }
        case OK:
            return ConsoleKey.decode(character: value).map { .key($0) }
        default:
            return nil
        }
    }

    /// The first signal that arrived, if any (when several arrived at once, the others are dropped).
    private func takeSignal() -> ConsoleSignal? {
        signals.take().lazy.compactMap(ConsoleSignal.init(number:)).first
    }

    /// Reads the keys already waiting, without blocking (stops at the first non-key, e.g. a resize).
    package func pendingKeys() -> [ConsoleKey] {
        guard !ended else { return [] }
        fs_set_timeout(0)
        defer { fs_set_timeout(100) }
        var keys: [ConsoleKey] = []
        while keys.count < 256 {
            var value: UInt32 = 0
            let status = fs_read(&value)
            if status == OK, let key = ConsoleKey.decode(character: value) {
                keys.append(key)
            } else if status == KEY_CODE_YES, Int32(value) != KEY_RESIZE,
                let key = ConsoleKey.decode(keyCode: Int32(value))
            {
                keys.append(key)
            } else {
                if status == KEY_CODE_YES, Int32(value) == KEY_RESIZE { pendingResize = true }
                break
            }
        }
        return keys
    }

    /// Restores the terminal, stops the process as Ctrl-Z asked, and takes the screen back on `fg`.
    package func suspend() {
        guard !ended else { return }
        fs_end()
        fs_default_signal(SIGTSTP)
        fs_unblock_signal(SIGTSTP)
        raise(SIGTSTP)
        // Continued (SIGCONT): take the screen back.
        signals.reinstall(SIGTSTP)
        previous = nil
        fs_refresh()
    }

    /// Leaves curses mode (as for Ctrl-Z) while `body` runs a program in the foreground, then takes the screen
    /// back. The console's signal handlers stay installed: a signal that reaches the console meanwhile is
    /// handled once `body` returns.
    package func handOver<Result>(_ body: () -> Result) -> Result {
        guard !ended else { return body() }
        fs_end()
        let result = body()
        previous = nil
        fs_refresh()
        return result
    }

    /// Runs `endwin` and restores the previous signal dispositions. Safe to call more than once.
    package func end() {
        guard !ended else { return }
        ended = true
        fs_end()
        signals.uninstall()
        if let streams {
            fclose(streams.output)
            fclose(streams.input)
            self.streams = nil
        }
    }

    /// A changed wide character next to an unchanged cell must be redrawn with its neighbour.
    private func touchesChangedWide(_ old: ScreenBuffer, _ new: ScreenBuffer, _ base: Int, _ column: Int) -> Bool {
        let cell = new.cells[base + column]
        if cell.width == 0, column > 0 { return old.cells[base + column - 1] != new.cells[base + column - 1] }
        return false
    }

    private func setStyle(_ style: CellStyle) {
        let pair: Int16 = supportsColor ? Int16(style.foreground.rawValue) : 0
        fs_set_style(pair, style.bold ? 1 : 0, style.underline ? 1 : 0, style.reverse ? 1 : 0)
    }
}

/// The keys ncurses reads, as the console's state machine sees them.
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
