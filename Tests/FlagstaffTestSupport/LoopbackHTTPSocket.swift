import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error from the loopback server's socket layer, naming the failing call and `errno`.
package struct LoopbackHTTPError: Error, CustomStringConvertible, Sendable {
    /// The failing operation, e.g. `"bind"`.
    package var operation: String
    /// The `errno` value at the time of failure.
    package var code: Int32

    /// A readable message such as `loopback server: bind failed: Address already in use (errno 98)`.
    package var description: String {
        "loopback server: \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
    }
}

/// Thin wrappers over the POSIX socket calls the loopback server needs (IPv4, 127.0.0.1 only).
enum LoopbackSocket {
    #if canImport(Darwin)
    static let streamType = SOCK_STREAM
    static let sendFlags: Int32 = 0
    #else
    static let streamType = Int32(SOCK_STREAM.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif

    /// Calls `body` with the socket address 127.0.0.1:`port` and its length (for `bind` and `connect`).
    static func withLoopbackAddress(port: UInt16, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    /// Creates a TCP socket bound to 127.0.0.1:`port` (0 = ephemeral), not yet listening.
    static func makeBound(port: UInt16) throws(LoopbackHTTPError) -> Int32 {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw LoopbackHTTPError(operation: "socket", code: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let result = withLoopbackAddress(port: port) { bind(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw LoopbackHTTPError(operation: "bind", code: code)
        }
        return fd
    }

    /// The local port a bound socket has.
    static func localPort(of fd: Int32) throws(LoopbackHTTPError) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { throw LoopbackHTTPError(operation: "getsockname", code: errno) }
        return UInt16(bigEndian: address.sin_port)
    }

    /// Waits until `fd` is readable or `wakeFD` is readable (stop requested) or `timeoutMilliseconds` pass.
    ///
    /// - Returns: `.ready` if `fd` is readable, `.stopped` if the wake pipe fired, `.timedOut` otherwise.
    static func waitReadable(_ fd: Int32, wakeFD: Int32, timeoutMilliseconds: Int32) -> WaitResult {
        var fds = [
            pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let count = poll(&fds, nfds_t(fds.count), timeoutMilliseconds)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return .timedOut }
            if fds[1].revents != 0 { return .stopped }
            return .ready
        }
    }

    /// The outcome of ``waitReadable(_:wakeFD:timeoutMilliseconds:)``.
    enum WaitResult { case ready, stopped, timedOut }

    /// Writes all of `bytes`, returning `false` if the peer went away.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(fd, buffer.baseAddress.map { $0 + offset }, bytes.count - offset, sendFlags)
            }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Sets `SO_LINGER` 0 on `fd`, so that closing it sends the peer a TCP reset.
    static func lingerZero(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }
}
