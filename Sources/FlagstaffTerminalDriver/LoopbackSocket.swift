import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP client socket to a port of 127.0.0.1, for the benchmarks' load generator and the tests that speak raw
/// HTTP to `flagstaff serve`.
package enum LoopbackSocket {
    /// Connects to 127.0.0.1:`port`.
    /// - Parameters:
    ///   - port: the port.
    ///   - noDelay: sets `TCP_NODELAY` (small requests sent at once).
    ///   - receiveTimeout: seconds a read blocks at most (`nil`: no limit).
    /// - Returns: the connected descriptor (the caller closes it), or `nil`.
    package static func connect(port: Int, noDelay: Bool = false, receiveTimeout: Int? = nil) -> Int32? {
        guard let descriptor = makeSocket() else { return nil }
        if noDelay {
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        if let receiveTimeout {
            var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        }
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// A TCP port free on 127.0.0.1 now (bound to port 0, named by the system, then released).
    package static func freePort() -> Int? {
        guard let descriptor = makeSocket() else { return nil }
        defer { close(descriptor) }
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// A new TCP socket, or `nil`.
    private static func makeSocket() -> Int32? {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        return descriptor >= 0 ? descriptor : nil
    }

    /// 127.0.0.1:`port`.
    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
