import FlagstaffTestSupport
import Foundation

/// One server-sent event as a test reads it.
struct ReadEvent: Sendable, Equatable {
    var event: String?
    var id: String?
    var data: String
    var comment: Bool

    /// The data as a JSON object.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
    }
}

/// An event-stream request on a raw loopback connection: reads the response head, undoes the chunked framing and
/// splits the events. Blocking; use it inside `offCooperativePool`.
final class SSETestClient {
    let connection: LoopbackHTTPRawConnection
    /// The response head (status line and headers).
    private(set) var head = ""
    private var raw = Data()
    private var body = Data()
    private var events: [ReadEvent] = []

    /// Connects and sends `GET path` with `headers`.
    init(port: Int, path: String, headers: [String: String] = [:]) throws {
        connection = try LoopbackHTTPRawConnection(port: UInt16(port))
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try connection.send(request + "\r\n")
    }

    deinit { connection.close() }

    /// The status code, once the head has arrived (`0` before).
    var status: Int {
        Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Reads until the head and `count` more events (or comments) have arrived, or `timeout`.
    /// - Returns: the events read, oldest first (fewer than `count` on timeout or close).
    func next(_ count: Int = 1, timeout: Duration = .seconds(10)) -> [ReadEvent] {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while events.count < count, ContinuousClock.now < deadline {
            let received = connection.receive(until: nil, timeout: .milliseconds(50))
            if received.isEmpty {
                if closed { break }
                continue
            }
            raw.append(received)
            parse()
        }
        let taken = Array(events.prefix(count))
        events.removeFirst(taken.count)
        return taken
    }

    /// Whether the server closed the connection (seen by a read of nothing).
    private(set) var closed = false

    private func parse() {
        if head.isEmpty {
            guard let end = raw.range(of: Data("\r\n\r\n".utf8)) else { return }
            head = String(decoding: raw[..<end.lowerBound], as: UTF8.self)
            raw = Data(raw[end.upperBound...])
        }
        // Chunked framing: size line, data, CRLF.
        while let line = raw.range(of: Data("\r\n".utf8)) {
            let sizeText = String(decoding: raw[..<line.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { break }
            let start = line.upperBound
            guard raw.count - (start - raw.startIndex) >= size + 2 else { break }
            let dataStart = raw.index(raw.startIndex, offsetBy: start - raw.startIndex)
            body.append(raw[dataStart..<(dataStart + size)])
            raw = Data(raw[(dataStart + size + 2)...])
            if size == 0 { closed = true }
        }
        while let end = body.range(of: Data("\n\n".utf8)) {
            let text = String(decoding: body[..<end.lowerBound], as: UTF8.self)
            body = Data(body[end.upperBound...])
            var event = ReadEvent(event: nil, id: nil, data: "", comment: false)
            var dataLines: [String] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") {
                    event.comment = true
                } else if line.hasPrefix("event: ") {
                    event.event = String(line.dropFirst(7))
                } else if line.hasPrefix("id: ") {
                    event.id = String(line.dropFirst(4))
                } else if line.hasPrefix("data: ") {
                    dataLines.append(String(line.dropFirst(6)))
                }
            }
            event.data = dataLines.joined(separator: "\n")
            // `retry:` alone is no event.
            if event.comment || event.event != nil || !dataLines.isEmpty { events.append(event) }
        }
    }
}
