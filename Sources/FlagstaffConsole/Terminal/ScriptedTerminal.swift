/// A terminal that replays a script of events and keeps the frames drawn: for tests and benchmarks.
///
/// `nil` in the script is a read that timed out with no input (the loop then sends a tick). When the script
/// runs out it reports `SIGHUP` (as if the terminal went away), so a console run always ends.
/// Not thread-safe: use it from the thread running the console.
package final class ScriptedTerminal: ConsoleTerminal {
    /// The current size; a scripted ``ConsoleEvent/resize(width:height:)`` changes it.
    package private(set) var size: (width: Int, height: Int)
    /// Whether colours are reported as available.
    package let supportsColor: Bool
    /// Whether UTF-8 is reported as available.
    package let supportsUnicode: Bool
    /// The last frame drawn.
    package private(set) var lastFrame: ScreenBuffer?
    /// How many frames were drawn.
    package private(set) var frameCount = 0
    /// How many times ``invalidate()`` ran (full repaints asked for).
    package private(set) var invalidateCount = 0
    /// How many times ``suspend()`` ran.
    package private(set) var suspendCount = 0
    /// Whether ``end()`` ran.
    package private(set) var ended = false
    /// Called before each event is delivered, with the number of events delivered so far; lets a test act
    /// between events (change the registry from "another process", advance a test clock).
    package var beforeEvent: ((Int) -> Void)?
    /// Called after each frame is kept (e.g. to advance a test clock by a frame's cost).
    package var afterDraw: (() -> Void)?
    /// When `true`, ``pendingKeys()`` hands over every key event that follows in the script, as if typed
    /// faster than the console reads (typeahead).
    package var deliversTypeahead = false
    /// How many keys were handed over as typeahead.
    package private(set) var typeaheadCount = 0
    private var events: [ConsoleEvent?]
    private var delivered = 0

    /// Creates a scripted terminal.
    /// - Parameters:
    ///   - width: columns.
    ///   - height: rows.
    ///   - events: what ``nextEvent()`` returns, in order (`nil`: no input before the read timed out).
    ///   - supportsColor: whether colours are available.
    ///   - supportsUnicode: whether UTF-8 is available.
    package init(
        width: Int = 100, height: Int = 30, events: [ConsoleEvent?], supportsColor: Bool = true,
        supportsUnicode: Bool = true
    ) {
        size = (width, height)
        self.events = events
        self.supportsColor = supportsColor
        self.supportsUnicode = supportsUnicode
    }

    /// Keeps the frame as ``lastFrame`` and counts it.
    /// - Parameter buffer: the frame.
    package func draw(_ buffer: ScreenBuffer) {
        lastFrame = buffer
        frameCount += 1
        afterDraw?()
    }

    /// Counts the request; every frame is kept whole anyway.
    package func invalidate() { invalidateCount += 1 }

    /// The next scripted event; `SIGHUP` once the script is exhausted.
    package func nextEvent() -> ConsoleEvent? {
        beforeEvent?(delivered)
        guard delivered < events.count else { return .signal(.hangUp) }
        let event = events[delivered]
        delivered += 1
        if case .resize(let width, let height)? = event { size = (width, height) }
        return event
    }

    /// The key events that follow in the script, when ``deliversTypeahead`` is on.
    package func pendingKeys() -> [ConsoleKey] {
        guard deliversTypeahead else { return [] }
        var keys: [ConsoleKey] = []
        while delivered < events.count, case .key(let key)? = events[delivered] {
            keys.append(key)
            delivered += 1
        }
        typeaheadCount += keys.count
        return keys
    }

    /// Counts the suspension.
    package func suspend() { suspendCount += 1 }

    /// How many times ``handOver(_:)`` ran.
    package private(set) var handOverCount = 0

    /// Counts the hand-over and runs `body`.
    package func handOver<Result>(_ body: () -> Result) -> Result {
        handOverCount += 1
        return body()
    }

    /// Records that the console ended.
    package func end() { ended = true }
}
