import FlagstaffServerBodies
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// The push endpoints: Unleash streaming (`GET /api/client/streaming`), the Unleash delta API
/// (`GET /api/client/delta`) and OFREP's event stream (`GET /ofrep/v1/events`).
///
/// A stream is counted against ``StreamConnections/limit`` (503 beyond it), sends what the client lacks at once,
/// then one frame per change and a keep-alive comment after each quiet keep-alive interval. It ends when the
/// client leaves (noticed at once when the connection closes, else at the next write), when the client takes none
/// of a write for the write timeout (``WriteTimeoutHandler``), or when the server stops.
struct StreamRoutes: Sendable {
    let feed: ChangeFeed
    let streams: StreamConnections
    let clients: ClientTracker

    static let lastEventIDHeader = HTTPField.Name("Last-Event-ID")!

    func add(to router: Router<FlagRequestContext>) {
        router.get("/api/client/streaming") { request, context in stream(request, context: context, kind: .unleash) }
        router.get("/ofrep/v1/events") { request, context in stream(request, context: context, kind: .ofrep) }
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/api/client/delta", method: method) { request, _ in delta(request) }
        }
    }

    /// `GET /api/client/delta`: the delta events since the revision `If-None-Match` names (304 when it is the
    /// latest), the whole state as one `hydration` event when it names none or one no longer known; the ETag is
    /// the latest revision.
    private func delta(_ request: Request) -> Response {
        let (name, sdk) = FlagRoutes.identify(request)
        clients.record(name: name, sdk: sdk, call: .request)
        let known = StreamBodies.revision(inIfNoneMatch: request.headers[.ifNoneMatch])
        let latest = feed.refresh()
        var headers = HTTPFields()
        headers[.cacheControl] = "no-cache"
        headers[.accessControlExposeHeaders] = "ETag"
        if known == latest.id {
            headers[.eTag] = "\"\(latest.id)\""
            return Response(status: .notModified, headers: headers)
        }
        let missed = known.flatMap(feed.revisions(after:))
        let target = missed?.last ?? latest
        let body = missed.flatMap(StreamBodies.delta) ?? StreamBodies.hydration(target).bytes
        headers[.eTag] = "\"\(target.id)\""
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// An event stream of `kind`.
    private func stream(_ request: Request, context: FlagRequestContext, kind: StreamClient.Kind) -> Response {
        let lastEventID: UInt32?
        do throws(ServerReplyError) {
            lastEventID = try StreamBodies.lastEventID(request.headers[Self.lastEventIDHeader])
        } catch {
            return error.reply.response
        }
        let (name, sdk) = FlagRoutes.identify(request)
        clients.record(name: name, sdk: sdk, call: .request)
        let channel = context.channel
        let address = channel.remoteAddress.map(Self.describe)
        guard let streamID = streams.open(name: name, sdk: sdk, address: address, kind: kind) else {
            // The connection is closed after the answer: a refused client would otherwise hold a descriptor.
            guard streams.limit > 0 else {
                // Trying again will not help: no Retry-After.
                var response = ServerReply.error(
                    503,
                    "this server has event streams turned off (flagstaff serve --max-streams 0, or an open-file limit too low for any: its log says which); poll instead"
                ).response
                response.headers[.connection] = "close"
                return response
            }
            var response = ServerReply.error(
                503,
                "this server has \(streams.limit) event streams open, its limit (flagstaff serve --max-streams); poll instead, or try again later"
            ).response
            response.headers[.retryAfter] = "30"
            response.headers[.connection] = "close"
            return response
        }
        let feed = self.feed
        let streams = self.streams
        // However the stream ends (also when the response is never started), its slot is given back.
        channel.closeFuture.whenComplete { _ in streams.close(streamID, reason: "connection closed") }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        headers[HTTPField.Name("X-Accel-Buffering")!] = "no"
        // Subscribed before anything is sent, and the revision the client is taken to have read now: a change made
        // while the response starts is sent, not missed.
        let (subscriber, wakes) = feed.subscribe()
        let connectedAt = feed.latest
        // A client that leaves ends the wait at once, not at the next write.
        channel.closeFuture.whenComplete { _ in feed.unsubscribe(subscriber) }
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                var reason = "stream ended"
                do {
                    try await withGracefulShutdownHandler {
                        var sent = lastEventID
                        var missed = sent.flatMap(feed.revisions(after:))
                        var latest = missed?.last ?? connectedAt
                        let first: [ByteBuffer]
                        switch kind {
                        case .unleash:
                            first = StreamBodies.unleashFrames(
                                event: "unleash-connected", known: sent, missed: missed, latest: latest)
                        case .ofrep:
                            // A client that resumes and missed a change is told to fetch again at once.
                            let behind = sent != nil && missed?.isEmpty != true
                            first = behind ? [StreamBodies.ofrepRefetch(latest)] : []
                        }
                        try await Self.write(
                            [StreamBodies.retry], to: &writer, stream: streamID, revision: nil, streams: streams,
                            channel: channel)
                        try await Self.write(
                            first, to: &writer, stream: streamID, revision: latest.id, streams: streams,
                            channel: channel)
                        sent = latest.id
                        for await _ in wakes {
                            missed = sent.flatMap(feed.revisions(after:))
                            if missed?.isEmpty == true {
                                try await Self.write(
                                    [StreamBodies.keepAlive], to: &writer, stream: streamID, revision: nil,
                                    streams: streams, channel: channel)
                                continue
                            }
                            latest = missed?.last ?? feed.latest
                            let frames =
                                kind == .unleash
                                ? StreamBodies.unleashFrames(
                                    event: "unleash-updated", known: sent, missed: missed, latest: latest)
                                : [StreamBodies.ofrepRefetch(latest)]
                            try await Self.write(
                                frames, to: &writer, stream: streamID, revision: latest.id, streams: streams,
                                channel: channel)
                            sent = latest.id
                        }
                    } onGracefulShutdown: {
                        feed.unsubscribe(subscriber)
                    }
                    reason = "server stopping or connection closed"
                    try await writer.finish(nil)
                } catch {
                    reason = "the client stopped reading or left"
                }
                feed.unsubscribe(subscriber)
                streams.close(streamID, reason: reason)
            })
    }

    /// Writes a frame's pieces (shared with the other streams: no copy). After each piece, while the connection's
    /// outgoing buffer is full (the client reads slower than the server writes), it waits for the buffer to drain
    /// instead of handing over more: the pieces are rendered already, so without the wait a stream would hand a whole
    /// frame to a client that does not read and count it as sent (asked off the event loop, the channel still looks
    /// writable: the pieces reach it later). ``WriteTimeoutHandler`` closes the connection of
    /// a client that takes nothing for the write timeout. The revision is noted only when the connection is still
    /// open after the last piece (a closed one got nothing).
    private static func write(
        _ frames: [ByteBuffer], to writer: inout any ResponseBodyWriter, stream: UInt64, revision: UInt32?,
        streams: StreamConnections, channel: any Channel
    ) async throws {
        for frame in frames {
            try await writer.write(frame)
            // The piece reaches the channel on its event loop: asked there, after it, whether the buffer is full.
            while try await !channel.eventLoop.submit({ channel.isWritable }).get() {
                guard channel.isActive else { throw ChannelError.ioOnClosedChannel }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        guard channel.isActive else { throw ChannelError.ioOnClosedChannel }
        streams.wrote(stream, revision: revision)
    }

    /// `127.0.0.1:51234`, `[::1]:51234`.
    static func describe(_ address: SocketAddress) -> String {
        guard let ip = address.ipAddress else { return "\(address)" }
        let host = ip.contains(":") ? "[\(ip)]" : ip
        return address.port.map { "\(host):\($0)" } ?? host
    }
}
