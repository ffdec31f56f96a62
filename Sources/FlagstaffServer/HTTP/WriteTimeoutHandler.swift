import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client stops reading: once the connection's outgoing buffer is full (the channel is
/// not writable), the client must take some of it within ``timeout``, else the connection is reset. Every
/// response has it (a large body, an event stream, an answer pipelined behind them); the idle timeout cannot stand
/// in, since a connection whose answer is still being written is not idle. A slow client that keeps reading is
/// not cut: each time it takes bytes, it has ``timeout`` again.
///
/// Nothing else waits for such a client: a response's writer waits for the buffer to drain without holding a
/// thread (Hummingbird's writer suspends while the channel is not writable), and closing fails that write, so the
/// response's task ends and what it held is freed.
final class WriteTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// How long a full buffer may go without the client taking any of it.
    let timeout: TimeAmount
    /// Called with the client's address when its connection is closed for it (the server logs them).
    let onTimeout: @Sendable (SocketAddress?) -> Void
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount, onTimeout: @escaping @Sendable (SocketAddress?) -> Void = { _ in }) {
        self.timeout = timeout
        self.onTimeout = onTimeout
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            check?.cancel()
            check = nil
        } else if check == nil {
            schedule(context, buffered: Self.buffered(context))
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }

    /// Looks again after ``timeout``: closes the connection when the buffer is still full and no smaller.
    private func schedule(_ context: ChannelHandlerContext, buffered: Int) {
        check = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
            self.check = nil
            guard !context.channel.isWritable else { return }
            let now = Self.buffered(context)
            if now < buffered { return self.schedule(context, buffered: now) }
            self.onTimeout(context.channel.remoteAddress)
            // Reset, not closed: a plain close leaves the system holding what the client did not take (megabytes a
            // connection) and trying to deliver it for minutes; `SO_LINGER` 0 drops it at once (nginx's
            // `reset_timedout_connection`).
            guard let socket = context.channel as? any SocketOptionProvider else { return context.close(promise: nil) }
            socket.setSoLinger(NIOLinger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    /// The bytes waiting in the connection's buffer (0 when the channel cannot say: then only writability counts).
    private static func buffered(_ context: ChannelHandlerContext) -> Int {
        (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
    }
}
