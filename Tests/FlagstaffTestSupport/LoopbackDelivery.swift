import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How fast a ``LoopbackHTTPServer`` writes a response body: `bytes` at a time with `interval` between writes,
/// like a slow or endless stream, so tests can see whether a client stops reading early.
package struct LoopbackPace: Sendable, Equatable {
    /// The bytes written at a time.
    package var bytes: Int
    /// The pause after each write.
    package var interval: Duration

    /// Creates a pace.
    /// - Parameters:
    ///   - bytes: The bytes written at a time (at least 1).
    ///   - interval: The pause after each write.
    package init(bytes: Int, interval: Duration) {
        self.bytes = max(1, bytes)
        self.interval = interval
    }
}

/// What a ``LoopbackHTTPServer`` managed to write for one response.
package struct LoopbackDelivery: Sendable, Equatable {
    /// The body bytes the response had to send (after chunked encoding, before any truncation fault).
    package var bodyBytes: Int
    /// The body bytes actually written before the response ended.
    package var sentBodyBytes: Int
    /// Whether the whole response was written (`false` when the client closed the connection first, or a fault
    /// or a stop cut it short).
    package var completed: Bool
}

extension LoopbackSocket {
    /// Writes `bytes` at `pace` (all at once when `nil`), waking early when `wakeFD` becomes readable.
    /// - Returns: How many bytes were written, and whether all were.
    static func sendPaced(_ fd: Int32, _ bytes: [UInt8], pace: LoopbackPace?, wakeFD: Int32) -> (
        sent: Int, completed: Bool
    ) {
        guard let pace else {
            return sendAll(fd, bytes) ? (bytes.count, true) : (0, false)
        }
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + pace.bytes)
            guard sendAll(fd, Array(bytes[offset..<end])) else { return (offset, false) }
            offset = end
            if offset < bytes.count,
                waitReadable(
                    wakeFD, wakeFD: wakeFD, timeoutMilliseconds: LoopbackHTTPConnection.milliseconds(pace.interval))
                    != .timedOut
            {
                return (offset, false)
            }
        }
        return (offset, true)
    }
}
