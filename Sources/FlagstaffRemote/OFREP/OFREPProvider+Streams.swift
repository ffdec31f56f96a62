import Flagstaff
import Foundation

/// Following one event stream (ADR-0008): connect, turn `refetchEvaluation` messages into fetches, reconnect.
extension OFREPProvider {
    /// How one connection ended.
    private enum Ending {
        /// It was accepted (200) and later ended, cleanly or not.
        case dropped
        /// It was not accepted: refused, failed or answered another status.
        case failed
        /// The server refused the credentials: stop following this stream.
        case refused
    }

    /// The longest line, and the most data of one event, an OFREP event stream may send (a `refetchEvaluation`
    /// message is some 100 bytes): a stream that sends more is closed with an error and reconnected after the backoff.
    static let streamLineLimit = 64 << 10

    /// Follows the stream at `url` until the task is cancelled.
    func follow(_ url: URL, triggers: AsyncStream<Trigger>.Continuation) async {
        var lastEventID: String?
        var failures = 0
        var retry: Duration?
        while !Task.isCancelled {
            var parser = ServerSentEventParser(
                lastEventID: lastEventID, lineLimit: Self.streamLineLimit, eventLimit: Self.streamLineLimit)
            let ending = await read(
                url, parser: &parser, lastEventID: lastEventID,
                onOpen: {
                    // A change between the fetch that offered this stream (or the last event before a drop) and
                    // the stream's opening sends no event: revalidate (a 304 when nothing changed) on every opening.
                    triggers.yield(.revalidate)
                },
                onRefetch: { refetch in
                    state.withLock { $0.refetchMessages += 1 }
                    triggers.yield(.event(refetch))
                })
            lastEventID = parser.lastEventID
            // The server may have restarted: the next answer announces the linked registry again.
            announcementMayBeForgotten()
            if let milliseconds = parser.retryMilliseconds {
                retry = .milliseconds(Int64(min(milliseconds, 3_600_000)))
            }
            if Task.isCancelled { return }
            switch ending {
            case .refused: return
            case .dropped: failures = 1
            case .failed: failures += 1
            }
            do {
                try await options.clock.sleep(for: reconnectDelay(failures: failures, serverMinimum: retry))
            } catch {
                return
            }
        }
    }

    /// Reads one connection to its end.
    private func read(
        _ url: URL, parser: inout ServerSentEventParser, lastEventID: String?, onOpen: () -> Void,
        onRefetch: (OFREPRefetch) -> Void
    ) async -> Ending {
        // The configured fields (an `Authorization`, an API key) are the OFREP server's: a stream on another origin
        // gets none of them (its URL carries what it needs, ADR-0008).
        let sameOrigin = RemoteHTTPTransport.origin(url) == RemoteHTTPTransport.origin(options.baseURL)
        var headers =
            sameOrigin ? options.headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) } : []
        headers.append((name: "Accept", value: "text/event-stream"))
        headers.append((name: "Cache-Control", value: "no-cache"))
        if let lastEventID { headers.append((name: "Last-Event-ID", value: lastEventID)) }
        let request = RemoteHTTPRequest(method: "GET", url: url, headers: headers)
        // Never the URL itself in messages: it may carry a token (ADR-0008).
        let place = "event stream at \(RemoteHTTPError.hostAndPort(url))"
        var opened = false
        defer { if opened { state.withLock { $0.openStreams -= 1 } } }
        // On the bulk evaluations' session: the stream takes the idle connection of the fetch before it.
        for await event in transport.openStream(request, idleTimeout: options.streamIdleTimeout) {
            switch event {
            case .response(let status, _) where status == 200:
                opened = true
                state.withLock {
                    $0.openStreams += 1
                    $0.streamError = nil
                }
                onOpen()
            case .response(let status, _):
                state.withLock { $0.lastError = "OFREP \(place) answered status \(status)" }
                return status == 401 || status == 403 ? .refused : .failed
            case .data(let bytes):
                for message in parser.feed(bytes) {
                    guard let refetch = OFREPRefetch.from(eventData: message.data) else { continue }
                    onRefetch(refetch)
                }
                if parser.cutLines > 0 || parser.droppedEvents > 0 {
                    // Stopping the iteration closes the connection.
                    state.withLock {
                        $0.streamError =
                            "OFREP \(place) sent a line or an event of more than \(Self.streamLineLimit) bytes; closed"
                    }
                    return .failed
                }
            case .finished(let error):
                if case .streamBacklog? = error {
                    state.withLock { $0.streamError = "OFREP \(error?.description ?? place)" }
                    return .failed
                }
                if let error, error != .cancelled, !opened {
                    state.withLock { $0.lastError = "OFREP \(place): \(error)" }
                }
            }
        }
        return opened ? .dropped : .failed
    }
}
