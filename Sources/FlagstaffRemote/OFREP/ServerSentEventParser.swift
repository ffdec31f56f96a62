import Foundation

/// One event of a `text/event-stream`, as the WHATWG `EventSource` algorithm dispatches it.
package struct ServerSentEvent: Sendable, Equatable {
    /// The `event:` field, `message` when absent.
    package var type: String
    /// The `data:` lines joined by line feeds.
    package var data: String
    /// The last event id after this event (an `id:` in it, else the one before), `nil` when none was ever set.
    package var lastEventID: String?
    /// Whether a line of this event was longer than the parser's limit and was cut (its data is incomplete).
    package var isTruncated: Bool

    package init(type: String = "message", data: String, lastEventID: String? = nil, isTruncated: Bool = false) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.isTruncated = isTruncated
    }
}

/// Reads a `text/event-stream` body as it arrives, by the WHATWG rules: lines end in CR, LF or CRLF; a line
/// starting with `:` is a comment (keep-alive); `field: value` with one optional space after the colon; a blank
/// line dispatches the event (none when it has no data); `id` without a NUL sets the last event id; `retry` with
/// only digits sets the reconnection time. Pure: no I/O, fed by the transport.
///
/// A line longer than the limit (``maximumLineBytes`` unless the caller sets another) is cut there (the rest of
/// it is dropped, its event is marked ``ServerSentEvent/isTruncated`` and it is counted in ``cutLines``), and an
/// event whose data grows past the event limit (``maximumEventBytes`` unless the caller sets another, never less
/// than the line limit) is dropped whole (counted in ``droppedEvents``), so a server that never sends a line end
/// or a blank line cannot make the reader keep an unbounded buffer: it holds at most one line and one event's data,
/// byte for byte.
package struct ServerSentEventParser: Sendable {
    /// The longest line kept by default.
    package static let maximumLineBytes = 1 << 20
    /// The most data one event may carry by default; a larger event is dropped.
    package static let maximumEventBytes = 8 << 20

    private let lineLimit: Int
    /// The most data one event may carry: never less than one whole line.
    private let eventLimit: Int
    private var lineCut = false
    private var truncated = false
    private var line: [UInt8] = []
    private var afterCR = false
    private var sawBOM = false
    private var type = ""
    /// The event's `data:` lines, each after a line feed (the first one's is dropped at dispatch).
    private var data: [UInt8] = []
    private var hasData = false
    private var oversized = false
    /// Lines cut at the line limit.
    package private(set) var cutLines = 0
    /// Events dropped because their data was larger than the event limit.
    package private(set) var droppedEvents = 0
    /// The last event id (carried across events and, by the caller, across connections).
    package private(set) var lastEventID: String?
    /// The reconnection time the server asked for (`retry:`), in milliseconds.
    package private(set) var retryMilliseconds: Int?

    /// A parser that starts with a known last event id (a reconnection).
    /// - Parameters:
    ///   - lastEventID: The last event id known from an earlier connection.
    ///   - lineLimit: The longest line kept, in bytes.
    ///   - eventLimit: The most data one event may carry, in bytes (at least one whole line).
    package init(
        lastEventID: String? = nil, lineLimit: Int = Self.maximumLineBytes, eventLimit: Int = Self.maximumEventBytes
    ) {
        self.lastEventID = lastEventID
        self.lineLimit = max(1, lineLimit)
        self.eventLimit = max(eventLimit, self.lineLimit + 1)
    }

    /// Feeds the next bytes of the body.
    /// - Returns: the events completed by them, in order.
    package mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 10 { continue }
            }
            switch byte {
            case 13:
                afterCR = true
                endLine(into: &events)
            case 10:
                endLine(into: &events)
            default:
                if line.count < lineLimit {
                    line.append(byte)
                } else if !lineCut {
                    lineCut = true
                    cutLines += 1
                }
            }
        }
        return events
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer {
            line.removeAll(keepingCapacity: true)
            lineCut = false
        }
        if lineCut { truncated = true }
        var bytes = line[...]
        if !sawBOM {
            sawBOM = true
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        }
        if bytes.isEmpty {
            dispatch(into: &events)
            return
        }
        if bytes.first == UInt8(ascii: ":") { return }
        let name: String
        var text = ""
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")) {
            name = String(decoding: bytes[..<colon], as: UTF8.self)
            var rest = bytes[bytes.index(after: colon)...]
            if rest.first == UInt8(ascii: " ") { rest = rest.dropFirst() }
            text = String(decoding: rest, as: UTF8.self)
        } else {
            name = String(decoding: bytes, as: UTF8.self)
        }
        switch name {
        case "event": type = text
        case "data":
            hasData = true
            guard !oversized else { break }
            if data.count + text.utf8.count + 1 > eventLimit {
                oversized = true
                data = []
            } else {
                data.append(10)
                data.append(contentsOf: text.utf8)
            }
        case "id" where !text.contains("\u{0}"): lastEventID = text
        case "retry" where !text.isEmpty && text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }):
            retryMilliseconds = Int(text) ?? Int.max
        default: break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        defer {
            type = ""
            data.removeAll(keepingCapacity: data.capacity <= 64 << 10)
            hasData = false
            oversized = false
            truncated = false
        }
        guard hasData else { return }
        guard !oversized else {
            droppedEvents += 1
            return
        }
        events.append(
            ServerSentEvent(
                type: type.isEmpty ? "message" : type, data: String(decoding: data.dropFirst(), as: UTF8.self),
                lastEventID: lastEventID,
                isTruncated: truncated))
    }
}
