import NIOCore

/// Counts the bytes written on a connection, from first in its pipeline (next to the socket).
final class WrittenByteCounter: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// The bytes written so far (some may still wait in the channel's buffer).
    private(set) var count: UInt64 = 0

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        count += UInt64(unwrapOutboundIn(data).readableBytes)
        context.write(data, promise: promise)
    }
}
