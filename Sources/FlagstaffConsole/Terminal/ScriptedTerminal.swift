#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A terminal that replays a script of events and keeps the frames drawn: for tests and benchmarks.
///
/// When the script runs out it reports `SIGHUP` (as if the terminal went away), so a console run always ends.
/// Not thread-safe: use it from the thread running the console.
public final class ScriptedTerminal: ConsoleTerminal {
    /// The current size; a scripted ``ConsoleKey/resize(width:height:)`` changes it.
    public private(set) var size: (width: Int, height: Int)
    /// Whether colours are reported as available.
    public let supportsColor: Bool
    /// Whether UTF-8 is reported as available.
    public let supportsUnicode: Bool
    /// The last frame drawn.
    public private(set) var lastFrame: ScreenBuffer?
    /// How many frames were drawn.
    public private(set) var frameCount = 0
    /// How many times ``suspend()`` ran.
    public private(set) var suspendCount = 0
    /// Whether ``end()`` ran.
    public private(set) var ended = false
    /// Called before each event is delivered, with the number of events delivered so far; lets a test act
    /// between keys (e.g. change the registry from "another process").
    public var beforeEvent: ((Int) -> Void)?
    /// When `true`, ``pendingKeys()`` hands over every key event that follows in the script, as if typed
    /// faster than the console reads (typeahead).
    public var deliversTypeahead = false
    /// How many keys were handed over as typeahead.
    public private(set) var typeaheadCount = 0
    private var events: [TerminalEvent]
    private var delivered = 0

    /// Creates a scripted terminal.
    /// - Parameters:
    ///   - width: columns.
    ///   - height: rows.
    ///   - events: what ``nextEvent()`` returns, in order.
    ///   - supportsColor: whether colours are available.
    ///   - supportsUnicode: whether UTF-8 is available.
    public init(width: Int = 100, height: Int = 30, events: [TerminalEvent], supportsColor: Bool = true, supportsUnicode: Bool = true) {
        size = (width, height)
        self.events = events
        self.supportsColor = supportsColor
        self.supportsUnicode = supportsUnicode
    }

    /// Keeps the frame as ``lastFrame`` and counts it.
    /// - Parameter buffer: the frame.
    public func draw(_ buffer: ScreenBuffer) {
        lastFrame = buffer
        frameCount += 1
    }

    /// Nothing to forget: every frame is kept whole.
    public func invalidate() {}

    /// The next scripted event; `SIGHUP` once the script is exhausted.
    public func nextEvent() -> TerminalEvent {
        beforeEvent?(delivered)
        guard delivered < events.count else { return .signal(SIGHUP) }
        let event = events[delivered]
        delivered += 1
        if case let .key(.resize(width, height)) = event { size = (width, height) }
        return event
    }

    /// The key events that follow in the script, when ``deliversTypeahead`` is on.
    public func pendingKeys() -> [ConsoleKey] {
        guard deliversTypeahead else { return [] }
        var keys: [ConsoleKey] = []
        while delivered < events.count, case let .key(key) = events[delivered], !isResize(key) {
            keys.append(key)
            delivered += 1
        }
        typeaheadCount += keys.count
        return keys
    }

    private func isResize(_ key: ConsoleKey) -> Bool {
        if case .resize = key { return true }
        return false
    }

    /// Counts the suspension.
    public func suspend() { suspendCount += 1 }

    /// Records that the console ended.
    public func end() { ended = true }
}
