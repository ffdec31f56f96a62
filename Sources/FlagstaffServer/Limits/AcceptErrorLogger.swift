import Flagstaff
import Logging
import NIOCore

/// Says on the log when the server cannot accept a connection because the process (`EMFILE`) or the system
/// (`ENFILE`) has no descriptor left. NIO then waits a second before accepting again, and says nothing: without
/// this line, pollers timed out while the log stayed silent. Sits first in the listening socket's pipeline, so it
/// sees the error before NIO's back-off handler swallows it; at most one line a second (NIO's back-off).
final class AcceptErrorLogger: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let logger: Logger
    private let streams: StreamConnections

    init(logger: Logger, streams: StreamConnections) {
        self.logger = logger
        self.streams = streams
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? IOError, let name = Platform.outOfDescriptorsName(error.errnoCode) {
            let limit = Platform.openFileLimit.map { " (ulimit -n: \($0.soft))" } ?? ""
            logger.warning(
                "cannot accept a connection: too many open files (\(name))\(limit); \(streams.count) event streams open; new connections wait until one closes"
            )
        }
        context.fireErrorCaught(error)
    }
}
