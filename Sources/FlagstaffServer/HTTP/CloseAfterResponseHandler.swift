import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes the connection after a response that says `Connection: close` (every 413, see ``ServerReply``): a
/// client that announced or started a body too large is not read any further.
///
/// The close lingers, as HTTP servers do: once the response is sent the server stops sending (half-close), so
/// the client sees the whole response and an end of stream, and reads what is still arriving for at most
/// ``linger`` before closing for good. Closing at once, with unread bytes of the body still arriving, would make
/// the system reset the connection, and a client could lose the response it had not read yet.
final class CloseAfterResponseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long the client may go on sending after the response before the connection is closed anyway.
    let linger: TimeAmount
    private var closeAfterEnd = false

    init(linger: TimeAmount = .seconds(2)) {
        self.linger = linger
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            if response.status.code >= 200, let connection = response.headerFields[.connection] {
                closeAfterEnd = HeaderList.elements(connection).contains { $0.lowercased() == "close" }
            }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closeAfterEnd else { return context.write(data, promise: promise) }
            closeAfterEnd = false
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
            let linger = self.linger
            written.futureResult.assumeIsolated().whenComplete { _ in
                let halfClosed = context.eventLoop.makePromise(of: Void.self)
                context.close(mode: .output, promise: halfClosed)
                halfClosed.futureResult.assumeIsolated().whenComplete { result in
                    // A transport that cannot half-close closes at once.
                    if case .failure = result { return context.close(promise: nil) }
                    context.eventLoop.assumeIsolated().scheduleTask(in: linger) { context.close(promise: nil) }
                }
            }
        }
    }
}
