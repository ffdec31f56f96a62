import Flagstaff
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client stops reading: once the connection's outgoing buffer is full (the channel is
/// not writable), the client must take some of what waits for it within ``timeout``, else the connection is reset.
/// Every response has it (a large body, an event stream, an answer pipelined behind them); the idle timeout cannot
/// stand in, since a connection whose answer is still being written is not idle. A slow client that keeps reading
/// is not cut: each time it takes bytes, it has ``timeout`` again.
///
/// What counts is what the client took: the bytes its side acknowledged (``Platform/SentBytes``), not what the
/// system accepted into its own buffer. The system's buffer for a connection grows and shrinks with the memory
/// other connections leave it, so a client that takes nothing could look as if it read, and one that reads slowly
/// could look stalled until the buffer had room for a large piece. Once the buffer was full, the handler watches
/// until the client has taken everything written, whatever the channel's writability does meanwhile.
///
/// Nothing else waits for such a client: a response's writer waits for the buffer to drain without holding a
/// thread (Hummingbird's writer suspends while the channel is not writable), and closing fails that write, so the
/// response's task ends and what it held is freed.
final class WriteTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    /// How long a client may take none of what waits for it.
    let timeout: TimeAmount
    /// Called with the client's address when its connection is closed for it (the server logs them).
    let onTimeout: @Sendable (SocketAddress?) -> Void
    /// Counts the bytes written, next to the socket (added there with this handler).
    private let written = WrittenByteCounter()
    private var check: Scheduled<Void>?

    init(timeout: TimeAmount, onTimeout: @escaping @Sendable (SocketAddress?) -> Void = { _ in }) {
        self.timeout = timeout
        self.onTimeout = onTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // First in the pipeline, it sees the bytes as they go to the socket (this handler sees HTTP parts).
        try? context.pipeline.syncOperations.addHandler(written, position: .first)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable, check == nil {
            acknowledged(context) { self.schedule(context, acknowledged: $0, since: .now()) }
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

    /// Looks again a quarter of ``timeout`` later (so a connection is reset at most a quarter late): stops watching
    /// when the client has taken everything written, watches on when it took more than `acknowledged` or took
    /// nothing for less than ``timeout`` since `since`, else resets the connection.
    private func schedule(_ context: ChannelHandlerContext, acknowledged before: UInt64, since: NIODeadline) {
        check = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(timeout.nanoseconds / 4)) {
            self.acknowledged(context) { now in
                self.check = nil
                guard now < self.written.count else { return }
                if now > before { return self.schedule(context, acknowledged: now, since: .now()) }
                if .now() - since < self.timeout { return self.schedule(context, acknowledged: before, since: since) }
                self.reset(context)
            }
        }
    }

    /// Closes the connection for its client (told to ``onTimeout``).
    private func reset(_ context: ChannelHandlerContext) {
        onTimeout(context.channel.remoteAddress)
        // Reset, not closed: a plain close leaves the system holding what the client did not take (megabytes a
        // connection) and trying to deliver it for minutes; `SO_LINGER` 0 drops it at once (nginx's
        // `reset_timedout_connection`).
        guard let socket = context.channel as? any SocketOptionProvider else { return context.close(promise: nil) }
        socket.setSoLinger(NIOLinger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    /// Calls `body` with the bytes the client has acknowledged so far (at once: the channel answers on its own event
    /// loop). A channel that is no socket, or a system that does not say, gives the bytes written to the system
    /// instead, what it accepted.
    private func acknowledged(_ context: ChannelHandlerContext, _ body: @escaping (UInt64) -> Void) {
        let pending = (try? context.channel.syncOptions?.getOption(.bufferedWritableBytes)) ?? 0
        let toSystem = written.count - min(written.count, UInt64(max(pending, 0)))
        guard let socket = context.channel as? any SocketOptionProvider else { return body(toSystem) }
        let reading: EventLoopFuture<Platform.SentBytes.Reading> = socket.unsafeGetSocketOption(
            level: SocketOptionLevel(Platform.SentBytes.level), name: SocketOptionName(Platform.SentBytes.name))
        reading.assumeIsolated().whenComplete { result in
            switch result {
            case .success(let reading): body(Platform.SentBytes.acknowledged(reading, written: toSystem))
            case .failure: body(toSystem)
            }
        }
    }
}
