/// Something that happened at the terminal while the console waited for input.
public enum TerminalEvent: Sendable, Equatable {
    /// A decoded key (or a resize).
    case key(ConsoleKey)
    /// A signal arrived (`SIGINT`, `SIGTERM`, `SIGHUP`, `SIGTSTP`).
    case signal(Int32)
    /// Nothing happened before the read timed out (about 100 ms); the loop does its periodic work.
    case idle
}

/// The I/O edge of the console: a screen to draw ``ScreenBuffer``s on and a source of key presses.
///
/// ``NCursesTerminal`` is the real one; ``ScriptedTerminal`` replays keys and records frames for tests and
/// benchmarks. All calls come from the thread running ``FeatureConsole/run()``.
public protocol ConsoleTerminal: AnyObject {
    /// The current size in columns and rows.
    var size: (width: Int, height: Int) { get }
    /// Whether the terminal shows colours (false with `NO_COLOR`, `--no-color` or a monochrome terminal).
    var supportsColor: Bool { get }
    /// Whether the terminal can show UTF-8 (false in a non-UTF-8 locale: the console uses ASCII glyphs).
    var supportsUnicode: Bool { get }
    /// Shows a frame, redrawing only what changed since the previous one.
    /// - Parameter buffer: the frame.
    func draw(_ buffer: ScreenBuffer)
    /// Forgets the previous frame so the next ``draw(_:)`` repaints everything (Ctrl-L, after a suspend).
    func invalidate()
    /// Waits briefly (about 100 ms) for input.
    /// - Returns: a key, a signal, or ``TerminalEvent/idle``.
    func nextEvent() -> TerminalEvent
    /// Restores the terminal, stops the process (Ctrl-Z) and takes the screen back when it continues.
    func suspend()
    /// Restores the terminal to the state it was in before the console started. Idempotent.
    func end()
    /// Returns the keys already typed and waiting, without waiting for more (typeahead). Signals are left
    /// for the next ``nextEvent()``.
    func pendingKeys() -> [ConsoleKey]
}

extension ConsoleTerminal {
    /// No typeahead: every key comes through ``nextEvent()``.
    public func pendingKeys() -> [ConsoleKey] { [] }
}
