import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose client hung up while an event stream is being sent to it. The server allows
/// half-closed connections (a client may stop sending and still read its answer), so a client's close is only an
/// end of input; for a stream, which only ends when the client leaves, it means the client is gone: the
/// connection is closed at once, so the stream ends and its slot is free without waiting for the next write.
final class StreamHangUpHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var streaming = false
    private var inputClosed = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            streaming = response.headerFields[.contentType]?.hasPrefix("text/event-stream") == true
            context.write(data, promise: promise)
            if streaming && inputClosed { context.close(promise: nil) }
        case .body:
            context.write(data, promise: promise)
        case .end:
            streaming = false
            context.write(data, promise: promise)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .some(.inputClosed) = event as? ChannelEvent {
            inputClosed = true
            if streaming { return context.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }
}
