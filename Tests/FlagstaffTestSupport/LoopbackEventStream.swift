import Flagstaff
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `text/event-stream` (server-sent events) answer that stays open: a handler returns
/// ``LoopbackResponse/eventStream(_:status:headers:)`` with one of these, and the test writes events to every
/// connection open on it with ``send(data:id:)`` (or raw text with ``send(_:)``) and ends them with
/// ``closeConnections()``. A connection ends too when the client closes it or the server stops.
///
/// ```swift
/// let events = LoopbackEventStream()
/// let server = try LoopbackHTTPServer.started { _ in .eventStream(events) }
/// events.send(data: #"{"type":"refetchEvaluation"}"#, id: "1")
/// ```
package final class LoopbackEventStream: Sendable, Equatable {
    private struct State {
        /// Bytes waiting to be written, by connection.
        var pending: [Int: [UInt8]] = [:]
        var closing: Set<Int> = []
        var next = 0
        var opened = 0
    }

    private let state = AnnotatedMutex(State())

    /// Creates a stream with no connection yet.
    package init() {}

    package static func == (lhs: LoopbackEventStream, rhs: LoopbackEventStream) -> Bool { lhs === rhs }

    /// The connections open on this stream now.
    package var openConnectionCount: Int { state.withLock { $0.pending.count } }

    /// The connections ever opened on this stream.
    package var openedConnectionCount: Int { state.withLock { $0.opened } }

    /// Writes raw text to every open connection.
    package func send(_ text: String) {
        state.withLock { state in
            for id in state.pending.keys { state.pending[id, default: []] += Array(text.utf8) }
        }
    }

    /// Writes one event (`id:` when given, then a `data:` line per line of `data`, then a blank line).
    package func send(data: String, id: String? = nil) {
        var text = id.map { "id: \($0)\n" } ?? ""
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        send(text + "\n")
    }

    /// Ends every open connection cleanly (the last chunk), from the server side.
    package func closeConnections() {
        state.withLock { $0.closing.formUnion($0.pending.keys) }
    }

    /// Waits until `count` connections are open, checking every 5 ms until `timeout` passes.
    package func waitForConnections(_ count: Int, timeout: Duration = .seconds(90)) async -> Bool {
        await eventually(timeout: timeout) { self.openConnectionCount >= count }
    }

    /// Serves one connection: the head, then the events as they are sent, until it ends.
    func serve(fd: Int32, wakeFD: Int32, head: String) -> LoopbackDelivery {
        let id = state.withLock { state -> Int in
            defer { state.next += 1 }
            state.pending[state.next] = []
            state.opened += 1
            return state.next
        }
        defer { state.withLock { $0.pending[id] = nil } }
        var delivery = LoopbackDelivery(bodyBytes: 0, sentBodyBytes: 0, completed: false)
        guard LoopbackSocket.sendAll(fd, Array(head.utf8)) else { return delivery }
        while true {
            let (bytes, closing) = state.withLock { state -> ([UInt8], Bool) in
                defer { state.pending[id] = [] }
                return (state.pending[id] ?? [], state.closing.remove(id) != nil)
            }
            if !bytes.isEmpty {
                let chunk = Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
                guard LoopbackSocket.sendAll(fd, chunk) else { return delivery }
                delivery.bodyBytes += chunk.count
                delivery.sentBodyBytes += chunk.count
            }
            if closing {
                delivery.completed = LoopbackSocket.sendAll(fd, Array("0\r\n\r\n".utf8))
                return delivery
            }
            switch LoopbackSocket.waitReadable(fd, wakeFD: wakeFD, timeoutMilliseconds: 2) {
            case .stopped: return delivery
            case .timedOut: continue
            case .ready:
                // The client sent bytes or closed: a stream reader sends nothing, so either ends the stream.
                return delivery
            }
        }
    }
}

extension LoopbackResponse {
    /// A `200 text/event-stream` answer kept open on `stream` (chunked, `Cache-Control: no-cache`).
    /// - Parameters:
    ///   - stream: Where the test writes the events.
    ///   - status: The status (a stream is 200; another status sends the head and ends).
    ///   - headers: Extra header fields.
    package static func eventStream(
        _ stream: LoopbackEventStream, status: Int = 200, headers: LoopbackHeaders = LoopbackHeaders()
    ) -> LoopbackResponse {
        var all = headers
        if !all.contains("Content-Type") { all["Content-Type"] = "text/event-stream" }
        if !all.contains("Cache-Control") { all["Cache-Control"] = "no-cache" }
        var response = LoopbackResponse(status: status, headers: all, chunked: true)
        response.eventStream = stream
        return response
    }
}
