import Flagstaff
import FlagstaffTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback stand-in for Firebase's realtime endpoint (`:streamFetchInvalidations`), following the protocol
/// the Apple SDK speaks: a POST whose response stays open (chunked) while the server writes JSON messages such as
/// `{"latestTemplateVersionNumber": "5"}` as templates are published.
///
/// Each connection is served on a thread of its own: an `OPTIONS` request (the transport's warm-up) is answered
/// 204 and the connection kept for the next request; any other request is recorded, then either a status is
/// answered (``Mode/status(_:)``) or a 200 stream is opened and kept until ``closeStreams()``, ``stop()`` or the
/// client closes it. ``send(_:)`` writes one message to every open stream.
final class RealtimeStandIn: Sendable {
    /// A socket call failed while starting.
    struct StandInError: Error {
        var operation: String
        var code: Int32
    }

    /// How the next connections are answered.
    enum Mode: Sendable, Equatable {
        /// 200, then a long-lived chunked stream.
        case stream
        /// This status with a Firebase error body, then close.
        case status(Int)
        /// Read the request, then close without answering.
        case hangUp
    }

    private struct State {
        var mode = Mode.stream
        var requests: [LoopbackRequest] = []
        var arrivals: [(method: String, connection: Int)] = []
        var streams: [Int32] = []
        var connections = 0
        var stopped = false
    }

    private let state = AnnotatedMutex(State())
    private let listenFD: Int32
    /// The bound port.
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw StandInError(operation: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            close(fd)
            throw StandInError(operation: "bind/listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listenFD = fd
        port = UInt16(bigEndian: address.sin_port)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "RealtimeStandIn.accept"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }
    /// Every stream request received (not the warm-ups), in order.
    var requests: [LoopbackRequest] { state.withLock { $0.requests } }
    /// Every request received, warm-ups included, with the connection it came on (numbered from 1).
    var arrivals: [(method: String, connection: Int)] { state.withLock { $0.arrivals } }
    /// Connections that carried a request so far.
    var connectionCount: Int { state.withLock { $0.connections } }
    /// Streams open now.
    var openStreamCount: Int { state.withLock { $0.streams.count } }

    func setMode(_ mode: Mode) {
        state.withLock { $0.mode = mode }
    }

    /// Writes `message` as one chunk to every open stream.
    func send(_ message: String) {
        let bytes = Array(message.utf8)
        let chunk = Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
        state.withLock { state in
            for fd in state.streams { _ = Self.sendAll(fd, chunk) }
        }
    }

    /// Ends every open stream cleanly (the last chunk) and closes it from the server side.
    func closeStreams() {
        state.withLock { state in
            for fd in state.streams {
                _ = Self.sendAll(fd, Array("0\r\n\r\n".utf8))
                shutdown(fd, Int32(SHUT_RDWR))
            }
        }
    }

    /// Stops accepting and closes every stream.
    func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        closeStreams()
        // Shutting the listening socket down ends the accept loop, which closes it: closing it here could let
        // the loop call accept on a number the system already gave to another test's socket.
        shutdown(listenFD, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        defer { close(listenFD) }
        while true {
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            if state.withLock({ $0.stopped }) {
                close(client)
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.name = "RealtimeStandIn.connection"
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        var connection: Int?
        var next = Self.readRequest(fd)
        while let request = next {
            let number = state.withLock { state -> Int in
                if connection == nil { state.connections += 1 }
                state.arrivals.append((request.method, connection ?? state.connections))
                return connection ?? state.connections
            }
            connection = number
            guard request.method == "OPTIONS" else { return respond(to: request, on: fd) }
            guard Self.sendAll(fd, Array("HTTP/1.1 204 No Content\r\n\r\n".utf8)) else { break }
            next = Self.readRequest(fd)
        }
        close(fd)
    }

    /// Answers a stream request as the mode says, then closes the connection.
    private func respond(to request: LoopbackRequest, on fd: Int32) {
        let mode = state.withLock { state -> Mode in
            state.requests.append(request)
            return state.mode
        }
        switch mode {
        case .hangUp:
            close(fd)
        case .status(let status):
            let body = #"{"error":{"code":\#(status),"message":"stand-in status \#(status)","status":"FAILED"}}"#
            let head =
                "HTTP/1.1 \(status) Status\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n"
            _ = Self.sendAll(fd, Array((head + body).utf8))
            shutdown(fd, Int32(SHUT_WR))
            Self.drain(fd)
            close(fd)
        case .stream:
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n"
            let registered = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.streams.append(fd)
                return Self.sendAll(fd, Array(head.utf8))
            }
            if registered { Self.drain(fd) }
            state.withLock { $0.streams.removeAll { $0 == fd } }
            close(fd)
        }
    }

    /// Reads until the peer closes (or the socket is shut down).
    private static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
        }
    }

    private static func readRequest(_ fd: Int32) -> LoopbackRequest? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        func fill() -> Bool {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.firstRange(of: [13, 10, 13, 10])?.lowerBound
            if headEnd == nil && (buffer.count > 65536 || !fill()) { return nil }
        }
        guard let headEnd else { return nil }
        let lines = String(decoding: buffer[0..<headEnd], as: UTF8.self).components(separatedBy: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers = LoopbackHeaders()
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                line[..<colon].trimmingCharacters(in: .whitespaces),
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        if headers["Expect"]?.lowercased() == "100-continue" {
            _ = sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        buffer.removeFirst(headEnd + 4)
        let length = Int(headers["Content-Length"] ?? "0") ?? 0
        while buffer.count < length {
            if !fill() { return nil }
        }
        return LoopbackRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
            body: Data(buffer.prefix(length)))
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }
}
