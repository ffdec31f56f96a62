import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One accepted connection: reads an HTTP/1.1 request, writes its response (or a fault); closes after it unless
/// the server keeps connections alive.
struct LoopbackHTTPConnection {
    /// Largest request head (request line + headers) accepted.
    static let maximumHeadBytes = 64 * 1024
    /// Largest request body accepted.
    static let maximumBodyBytes = 16 * 1024 * 1024
    /// How long a connection may sit idle while the server waits for request bytes. Long, so a kept-alive
    /// connection outlives a test that a loaded machine resumes seconds late (stopping the server ends it).
    static let idleTimeoutMilliseconds: Int32 = 120_000

    let fd: Int32
    let wakeFD: Int32
    private var buffer: [UInt8] = []

    init(fd: Int32, wakeFD: Int32) {
        self.fd = fd
        self.wakeFD = wakeFD
    }

    /// Reads more bytes into the buffer; `false` on EOF, error, idle timeout or stop.
    private mutating func fill() -> Bool {
        guard
            LoopbackSocket.waitReadable(fd, wakeFD: wakeFD, timeoutMilliseconds: Self.idleTimeoutMilliseconds) == .ready
        else { return false }
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// Reads until `needed` bytes are buffered.
    private mutating func fill(toCount needed: Int) -> Bool {
        while buffer.count < needed {
            if !fill() { return false }
        }
        return true
    }

    /// Reads a line terminated by CRLF from the buffer (for chunked bodies).
    private mutating func readLine() -> String? {
        while true {
            if let index = findCRLF(from: 0) {
                let line = String(decoding: buffer[0..<index], as: UTF8.self)
                buffer.removeFirst(index + 2)
                return line
            }
            if buffer.count > Self.maximumHeadBytes || !fill() { return nil }
        }
    }

    private func findCRLF(from start: Int) -> Int? {
        guard buffer.count >= 2 else { return nil }
        var index = start
        while index + 1 < buffer.count {
            if buffer[index] == 13 && buffer[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// Reads and parses one request; `nil` if the client closed early or sent something unparseable.
    mutating func readRequest() -> LoopbackRequest? {
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.firstRange(of: [13, 10, 13, 10])?.lowerBound
            if headEnd == nil && (buffer.count > Self.maximumHeadBytes || !fill()) { return nil }
        }
        guard let headEnd else { return nil }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard requestLine.count >= 2 else { return nil }
        var headers = LoopbackHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.add(name, value)
        }
        if headers["Expect"]?.lowercased() == "100-continue" {
            // Clients such as libcurl (URLSession on Linux) wait for this before sending a large body.
            guard LoopbackSocket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return nil }
        }
        var body = Data()
        if headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
            guard let decoded = readChunkedBody() else { return nil }
            body = decoded
        } else if let lengthText = headers["Content-Length"] {
            guard let length = Int(lengthText), length >= 0, length <= Self.maximumBodyBytes,
                fill(toCount: length)
            else { return nil }
            body = Data(buffer[0..<length])
            buffer.removeFirst(length)
        }
        return LoopbackRequest(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: body)
    }

    private mutating func readChunkedBody() -> Data? {
        var body = Data()
        while true {
            guard let sizeLine = readLine(),
                let size = Int(sizeLine.split(separator: ";").first.map(String.init) ?? "", radix: 16),
                size >= 0, body.count + size <= Self.maximumBodyBytes
            else { return nil }
            if size == 0 {
                // Skip trailers up to the empty line.
                while let trailer = readLine() {
                    if trailer.isEmpty { return body }
                }
                return nil
            }
            guard fill(toCount: size + 2) else { return nil }
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
    }

    /// Writes `response` (applying its delay, fault and pace). The connection is done unless `keepAlive` is set
    /// and the response was written whole without a fault. It never closes `fd`: the server closes it after
    /// forgetting it, so a `stop()` cannot shut down a descriptor number the system already gave to another socket.
    /// - Returns: What was written, and whether the connection is still open for another request.
    func respond(_ response: LoopbackResponse, keepAlive: Bool = false) -> (delivery: LoopbackDelivery, open: Bool) {
        var delivery = LoopbackDelivery(bodyBytes: response.body.count, sentBodyBytes: 0, completed: false)
        let delayMilliseconds = Self.milliseconds(response.delay)
        if delayMilliseconds > 0 {
            // Sleep, but wake at once if the server is stopped (the wake pipe becomes readable).
            let result = LoopbackSocket.waitReadable(wakeFD, wakeFD: wakeFD, timeoutMilliseconds: delayMilliseconds)
            if result != .timedOut {
                return (delivery, false)
            }
        }
        switch response.fault {
        case .closeWithoutResponse:
            return (delivery, false)
        case .resetConnection:
            LoopbackSocket.lingerZero(fd)
            return (delivery, false)
        case .truncatedBody, nil:
            break
        }
        let keepOpen = keepAlive && response.fault == nil
        var head = "HTTP/1.1 \(response.status) \(response.reasonPhrase)\r\n"
        var headers = response.headers
        if response.chunked {
            headers["Content-Length"] = nil
            headers["Transfer-Encoding"] = "chunked"
        } else if !headers.contains("Content-Length") {
            headers["Content-Length"] = String(response.body.count)
        }
        if !keepOpen { headers["Connection"] = "close" }
        for field in headers { head += "\(field.name): \(field.value)\r\n" }
        head += "\r\n"
        if let stream = response.eventStream {
            let streamed = stream.serve(fd: fd, wakeFD: wakeFD, head: head)
            shutdown(fd, Int32(SHUT_WR))
            return (streamed, false)
        }
        var body = [UInt8](response.body)
        if case .truncatedBody(let sentBytes) = response.fault {
            body = Array(body.prefix(max(0, sentBytes)))
        }
        if response.chunked && response.fault == nil {
            var encoded: [UInt8] = []
            var offset = 0
            while offset < body.count {
                let size = min(8192, body.count - offset)
                encoded += Array(String(size, radix: 16).utf8) + [13, 10] + body[offset..<offset + size] + [13, 10]
                offset += size
            }
            encoded += Array("0\r\n\r\n".utf8)
            body = encoded
            delivery.bodyBytes = body.count
        }
        if LoopbackSocket.sendAll(fd, Array(head.utf8)) {
            let sent = LoopbackSocket.sendPaced(fd, body, pace: response.pace, wakeFD: wakeFD)
            delivery.sentBodyBytes = sent.sent
            delivery.completed = sent.completed && response.fault == nil
        }
        if keepOpen && delivery.completed { return (delivery, true) }
        shutdown(fd, Int32(SHUT_WR))
        // Drain briefly so the client reads everything before the close (avoids a reset discarding data).
        _ = LoopbackSocket.waitReadable(fd, wakeFD: wakeFD, timeoutMilliseconds: 1000)
        return (delivery, false)
    }

    static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(0, total))
    }
}
