import Flagstaff
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 that refuses every connection, for "connection refused" tests.
///
/// The port is bound but never listened on, so connection attempts get a TCP reset (`ECONNREFUSED`), and
/// no other process can take the port while this value is alive. Call ``close()`` (or drop the last reference)
/// to release it.
///
/// ```swift
/// let refused = try LoopbackRefusedPort()
/// let provider = MyProvider(baseURL: refused.baseURL)   // every request fails with "connection refused"
/// ```
package final class LoopbackRefusedPort: Sendable {
    private let fd: AnnotatedMutex<Int32>
    /// The reserved port number.
    package let port: UInt16

    /// Reserves an ephemeral port that refuses connections.
    ///
    /// - Throws: ``LoopbackHTTPError`` if no socket can be bound.
    package init() throws {
        let socketFD = try LoopbackSocket.makeBound(port: 0)
        do {
            port = try LoopbackSocket.localPort(of: socketFD)
        } catch {
            closeDescriptor(socketFD)
            throw error
        }
        fd = AnnotatedMutex(socketFD)
    }

    deinit {
        close()
    }

    /// `http://127.0.0.1:<port>` (no trailing slash).
    package var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Releases the port; later connections may reach whatever binds it next.
    package func close() {
        fd.withLock { socketFD in
            if socketFD >= 0 {
                closeDescriptor(socketFD)
                socketFD = -1
            }
        }
    }
}

/// The C `close`, named so it does not clash with ``LoopbackRefusedPort/close()``.
private func closeDescriptor(_ fd: Int32) {
    #if canImport(Darwin)
    _ = Darwin.close(fd)
    #elseif canImport(Musl)
    _ = Musl.close(fd)
    #else
    _ = Glibc.close(fd)
    #endif
}
