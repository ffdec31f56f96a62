#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Platform {
    /// How much of what was written to a TCP socket its peer has acknowledged: what the client took, not what the
    /// system buffered for it. Read with one `getsockopt(socket, ``level``, ``name``)` into a ``Reading`` (the caller
    /// owns the socket; the server asks NIO's `SocketOptionProvider`), then ``acknowledged(_:written:)``.
    ///
    /// Linux counts the bytes acknowledged itself (`TCP_INFO`'s `tcpi_bytes_acked`, Linux 4.1 and later); Darwin
    /// says how many bytes its send buffer still holds, unsent or not yet acknowledged (`SO_NWRITE`), and the rest of
    /// what was written was acknowledged.
    package enum SentBytes {
        #if canImport(Darwin)
        /// The value `SO_NWRITE` fills in: the bytes in the send buffer, unsent or not yet acknowledged.
        package typealias Reading = CInt

        /// The option's level (`SOL_SOCKET`).
        package static let level = Int32(SOL_SOCKET)
        /// The option (`SO_NWRITE`).
        package static let name = Int32(SO_NWRITE)

        /// The bytes the peer acknowledged, of `written` bytes written to the socket so far.
        package static func acknowledged(_ reading: Reading, written: UInt64) -> UInt64 {
            written - min(written, UInt64(max(reading, 0)))
        }
        #else
        /// The start of Linux's `struct tcp_info` (<linux/tcp.h>) through `tcpi_bytes_acked`: glibc's own
        /// <netinet/tcp.h> stops before that field. The system fills in as much as is asked for.
        package struct Reading: Sendable {
            /// Sixteen 8-byte words: state, options and counters through `tcpi_total_retrans` (bytes 0–103), the two
            /// pacing rates (104–119), then `tcpi_bytes_acked` (120–127).
            private var words:
                (
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
                ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

            /// `tcpi_bytes_acked`.
            fileprivate var bytesAcknowledged: UInt64 { words.15 }

            /// Nothing read yet.
            package init() {}
        }

        /// The option's level (`IPPROTO_TCP`).
        package static let level = Int32(IPPROTO_TCP)
        /// The option (`TCP_INFO`).
        package static let name = Int32(TCP_INFO)

        /// The bytes the peer acknowledged (the system counts them; `written` is not needed here). On a connection
        /// this side opened, the count has one more: its SYN.
        package static func acknowledged(_ reading: Reading, written: UInt64) -> UInt64 {
            reading.bytesAcknowledged
        }
        #endif
    }
}
