import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking TCP connection to 127.0.0.1 for sending hand-written bytes to a server: malformed
/// requests, protocol details (`Expect: 100-continue`), partial writes.
///
/// ```swift
/// let connection = try LoopbackHTTPRawConnection(port: server.port)
/// try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
/// let reply = connection.receive(until: "\r\n\r\n", timeout: .seconds(5))
/// ```
///
/// Not thread-safe: use one connection from one task. Calls block the calling thread (at most `timeout`).
package final class LoopbackHTTPRawConnection {
    private var fd: Int32

    /// Connects to 127.0.0.1:`port`.
    ///
    /// - Parameter port: The port.
    /// - Throws: ``LoopbackHTTPError`` if the connection fails (e.g. refused).
    package init(port: UInt16) throws {
        let socketFD = socket(AF_INET, LoopbackSocket.streamType, 0)
        guard socketFD >= 0 else { throw LoopbackHTTPError(operation: "socket", code: errno) }
        let result = LoopbackSocket.withLoopbackAddress(port: port) { connect(socketFD, $0, $1) }
        guard result == 0 else {
            let code = errno
            _ = Self.closeDescriptor(socketFD)
            throw LoopbackHTTPError(operation: "connect", code: code)
        }
        fd = socketFD
    }

    deinit {
        close()
    }

    /// Sends all of `data`.
    ///
    /// - Parameter data: The bytes.
    /// - Throws: ``LoopbackHTTPError`` if the peer has gone away.
    package func send(_ data: Data) throws {
        guard fd >= 0, LoopbackSocket.sendAll(fd, [UInt8](data)) else {
            throw LoopbackHTTPError(operation: "send", code: errno)
        }
    }

    /// Sends `text` as UTF-8.
    ///
    /// - Parameter text: The text, e.g. a request head with `\r\n` line ends.
    /// - Throws: ``LoopbackHTTPError`` if the peer has gone away.
    package func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    /// Reads until `marker` has been received, the peer closes, or `timeout` passes.
    ///
    /// - Parameters:
    ///   - marker: Text to wait for, or `nil` to read until the peer closes.
    ///   - timeout: The longest time to wait in total (long by default: it only matters when the marker never
    ///     comes, and a loaded machine with every test running answered after more than 5 s).
    /// - Returns: Everything received (possibly more than up to the marker).
    package func receive(until marker: String? = nil, timeout: Duration = .seconds(30)) -> Data {
        var received = Data()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        let needle = marker.map { Data($0.utf8) }
        while fd >= 0 {
            if let needle, received.range(of: needle) != nil { break }
            let remaining = deadline - clock.now
            guard remaining > .zero else { break }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, LoopbackHTTPConnection.milliseconds(remaining) + 1)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            var chunk = [UInt8](repeating: 0, count: 16 * 1024)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received.append(contentsOf: chunk[0..<count])
        }
        return received
    }

    /// Closes the connection. Safe to call more than once.
    package func close() {
        if fd >= 0 {
            _ = Self.closeDescriptor(fd)
            fd = -1
        }
    }

    private static func closeDescriptor(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
        Darwin.close(descriptor)
        #elseif canImport(Musl)
        Musl.close(descriptor)
        #else
        Glibc.close(descriptor)
        #endif
    }
}
