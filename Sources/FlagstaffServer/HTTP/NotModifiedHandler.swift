import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTPTypes

/// Answers a poll that has the values already — `GET`/`HEAD` of `/api/frontend`, `/api/proxy` or
/// `/api/client/features` whose `If-None-Match` names the served ETag — with 304 on the connection's event loop,
/// before the request reaches the router: no task on the concurrency pool, no middleware chain, and a response
/// head made once per snapshot and second. Every other request, and any one it is not sure of, goes on to the
/// router (why: docs/performance.md, "Serving a poll").
///
/// The answer is the router's: the same headers (``ServerReply/response`` of a 304, `Date`, `Server`, and the CORS
/// `Access-Control-Allow-Origin` when the request has an `Origin`), the client noted as a call
/// (``ClientTracker``). It answers only when
/// - the request has a `Host` (one without goes on to the router and its 400),
/// - the `Authorization` header passes ``TokenCheck`` (a bad token goes on to the router and its 401),
/// - the request has no body, no `Expect` and no `Connection: close` (the router closes those),
/// - the snapshot is current without reading the store (``LiveSnapshot/currentIfUnchanged()``),
/// - no earlier request of the connection is still with the router (answers stay in order), and the connection
///   takes writes without queueing (a client that does not read meets the router's back-pressure).
///
/// It sits after Hummingbird's connection-state handler, which so counts its answers like the router's (idle
/// timeout, graceful stop): ``NotModifiedInstaller`` puts it there.
final class NotModifiedHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What is answered here, shared by every connection.
    struct Answerer: Sendable {
        let live: LiveSnapshot
        let clients: ClientTracker
        let tokens: Set<String>
        let serverName: String
        /// How many requests were answered here (relaxed: a count for tests and the benchmark).
        let answered: ServerCount

        /// The paths of the bodies a snapshot keeps, with whether the app's name may come in the query.
        static let paths: [String: Bool] = ["/api/frontend": true, "/api/proxy": true, "/api/client/features": false]

        /// The snapshot whose ETag `request` names when the request may be answered 304 here (the client is then
        /// noted, as the router notes a fetch: from `address`, holding the snapshot's values), else `nil`.
        func notModified(_ request: HTTPRequest, from address: @autoclosure () -> SocketAddress?) -> ServedSnapshot? {
            guard request.method == .get || request.method == .head, let target = request.path else { return nil }
            let query = target.utf8.firstIndex(of: UInt8(ascii: "?"))
            guard let namesApp = Self.paths[String(target[..<(query ?? target.endIndex)])] else { return nil }
            let headers = request.headerFields
            guard request.authority != nil, let ifNoneMatch = headers[.ifNoneMatch],
                headers[.contentLength] == nil || headers[.contentLength] == "0",
                headers[.transferEncoding] == nil, headers[.expect] == nil,
                !(headers[.connection].map(Self.saysClose) ?? false),
                TokenCheck.accepts(headers[.authorization], tokens: tokens),
                let snapshot = live.currentIfUnchanged(), ServerReply.matches(ifNoneMatch, snapshot.etag)
            else { return nil }
            var appName: String?
            if namesApp, query != nil {
                appName = URI(target).queryParameters.get("appName").flatMap { $0.isEmpty ? nil : $0 }
            }
            let (name, sdk) = FlagRoutes.identify(headers, appName: appName)
            clients.record(name: name, sdk: sdk, call: .request, address: address(), servedETag: snapshot.etag)
            answered.add()
            return snapshot
        }

        /// Whether a `Connection` header has the `close` option.
        static func saysClose(_ connection: String) -> Bool {
            HeaderList.elements(connection).contains { $0.lowercased() == "close" }
        }

        /// The 304 for `snapshot` as the router makes it, dated `date`, with the CORS header when `origin`.
        func response(_ snapshot: ServedSnapshot, date: String, origin: Bool) -> HTTPResponse {
            var headers = ServerReply(status: 304, etag: snapshot.etag).response.headers
            if origin { headers[.accessControlAllowOrigin] = "*" }
            headers[.date] = date
            headers[.server] = serverName
            return HTTPResponse(status: .notModified, headerFields: headers)
        }
    }

    /// The 304s of one snapshot in one second.
    private struct Made {
        let snapshot: ServedSnapshot
        let second: Int
        let plain: HTTPResponse
        let withOrigin: HTTPResponse
    }

    private enum Phase {
        /// Between requests, or reading one the router has.
        case routing
        /// Reading the rest of a request answered here; the answer goes out at its end.
        case answering(HTTPResponse)
    }

    private let answerer: Answerer
    private var phase = Phase.routing
    /// Requests handed to the router whose answer has not ended yet.
    private var withRouter = 0
    private var made: Made?
    private var needsFlush = false

    init(answerer: Answerer) {
        self.answerer = answerer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if withRouter == 0, context.channel.isWritable,
                let snapshot = answerer.notModified(request, from: context.channel.remoteAddress)
            {
                phase = .answering(answer(snapshot, origin: request.headerFields[.origin] != nil))
                return
            }
            withRouter += 1
            phase = .routing
            context.fireChannelRead(data)
        case .body:
            guard case .routing = phase else { return }
            context.fireChannelRead(data)
        case .end:
            guard case .answering(let response) = phase else { return context.fireChannelRead(data) }
            phase = .routing
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            needsFlush = true
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), withRouter > 0 { withRouter -= 1 }
        context.write(data, promise: promise)
    }

    /// The 304 for `snapshot` now, made once per snapshot and second.
    private func answer(_ snapshot: ServedSnapshot, origin: Bool) -> HTTPResponse {
        let second = Int(Date().timeIntervalSince1970)
        if let made, made.snapshot === snapshot, made.second == second {
            return origin ? made.withOrigin : made.plain
        }
        let date = HTTPDate.format(secondsSince1970: second)
        let fresh = Made(
            snapshot: snapshot, second: second, plain: answerer.response(snapshot, date: date, origin: false),
            withOrigin: answerer.response(snapshot, date: date, origin: true))
        made = fresh
        return origin ? fresh.withOrigin : fresh.plain
    }
}

/// Puts a ``NotModifiedHandler`` right after Hummingbird's connection-state handler, which Hummingbird adds after
/// the handlers a server configuration names; then leaves the pipeline. Without that handler (another
/// framework version) it leaves the pipeline as it is, and the router answers everything.
final class NotModifiedInstaller: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let answerer: NotModifiedHandler.Answerer
    private var installed = false
    private var left = false

    init(answerer: NotModifiedHandler.Answerer) {
        self.answerer = answerer
    }

    func channelActive(context: ChannelHandlerContext) {
        install(context)
        context.fireChannelActive()
        leave(context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        install(context)
        context.fireChannelRead(data)
        leave(context)
    }

    /// Adds the handler after the connection-state handler, once.
    private func install(_ context: ChannelHandlerContext) {
        guard !installed else { return }
        installed = true
        let pipeline = context.pipeline.syncOperations
        if let state = try? pipeline.handler(type: HTTPConnectionStateHandler.self) {
            try? pipeline.addHandler(NotModifiedHandler(answerer: answerer), position: .after(state))
        }
    }

    /// Leaves the pipeline (after passing on what it was handling).
    private func leave(_ context: ChannelHandlerContext) {
        guard !left else { return }
        left = true
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}
