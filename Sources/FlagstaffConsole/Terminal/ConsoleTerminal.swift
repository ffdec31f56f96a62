/// The I/O edge of the console: a screen to draw ``ScreenBuffer``s on and a source of input events.
///
/// ``NCursesTerminal`` is the real one; ``ScriptedTerminal`` replays events and records frames for tests and
/// benchmarks. All calls come from the thread running ``FeatureConsole/run()``.
package protocol ConsoleTerminal: AnyObject {
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
    /// - Returns: a key, a resize or a signal; `nil` when nothing happened before the wait ended.
    func nextEvent() -> ConsoleEvent?
    /// Restores the terminal, stops the process (Ctrl-Z) and takes the screen back when it continues.
    func suspend()
    /// Restores the terminal as for a suspend, runs `body` (an external editor in the foreground), then takes
    /// the screen back; a full repaint must follow.
    /// - Returns: what `body` returns.
    func handOver<Result>(_ body: () -> Result) -> Result
    /// Restores the terminal to the state it was in before the console started. Idempotent.
    func end()
    /// Returns the keys already typed and waiting, without waiting for more (typeahead). Signals and resizes
    /// are left for the next ``nextEvent()``.
    func pendingKeys() -> [ConsoleKey]
}

extension ConsoleTerminal {
    /// No typeahead: every key comes through ``nextEvent()``.
    package func pendingKeys() -> [ConsoleKey] { [] }
}
