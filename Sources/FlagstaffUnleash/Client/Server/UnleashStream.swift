import Flagstaff
import FlagstaffRemote
import Foundation
import Synchronization

/// The server client's streaming mode: one Server-Sent Events connection to `{url}/client/streaming`, as Unleash
/// Edge and `flagstaff serve` offer it.
///
/// `unleash-connected` carries the whole state (or, on a resumed connection, what was missed) and
/// `unleash-updated` the delta events of each change, both as `{"events":[…]}` bodies that are applied like a
/// delta poll's answer. A connection that ends is opened again after a pause on the client's clock
/// (``UnleashClientOptions/minimumReconnectDelay`` doubling per failure up to
/// ``UnleashClientOptions/maximumReconnectDelay``, never shorter than the server's `retry:`), sending the id of the
/// last event applied as `Last-Event-ID`. An event that cannot be applied is reported and skipped, and the
/// connection is opened again without `Last-Event-ID` so that the whole state replaces a sequence with a gap (as
/// Unleash's Node SDK does). 404 or 405 (no stream here) and a `fetch-mode` event saying `polling` hand over to
/// polling for good; 401 and 403 end streaming, as they stop polling.
///
/// The loop runs in the poller's task set (cancelled by `stop()`) and holds the poller weakly, so a client
/// dropped without `stop()` closes its stream.
final class UnleashStream: Sendable {
    typealias Poller = UnleashPoller<UnleashServerClient.Model, UnleashStateDocument>

    /// How one connection ended.
    enum Ending: Sendable, Equatable {
        /// It was accepted (200) and later ended.
        case dropped
        /// It was not accepted: refused, failed or answered another status.
        case failed
        /// 401 or 403: the key is refused.
        case refused
        /// 404 or 405: the server has no stream.
        case unsupported
        /// The server sent `fetch-mode: polling`.
        case pollingRequested
        /// An event could not be applied: reconnect for the whole state.
        case resync
        /// The client stopped, or is gone.
        case cancelled
    }

    /// `{url}/client/streaming`.
    let url: URL
    private let options: UnleashClientOptions
    private let transport: RemoteHTTPTransport
    private let on: Atomic<Bool>
    /// The id of the last event applied, sent as `Last-Event-ID` on the next connection.
    private let lastEventID = AnnotatedMutex<String?>(nil)

    /// Creates the stream of a client.
    /// - Parameters:
    ///   - url: The client API base (`{url}`).
    ///   - on: Whether the client was asked to stream.
    ///   - options: The clock, delays and idle timeout.
    init(url: URL, on: Bool, options: UnleashClientOptions) {
        self.url = url.appendingPathComponent("client").appendingPathComponent("streaming")
        self.options = options
        self.on = Atomic(on)
        transport = RemoteHTTPTransport(label: "flagstaff.unleash.stream", maximumResponseBytes: 0)
    }

    /// Whether the client streams (asked for, and not fallen back to polling).
    var isOn: Bool { on.load(ordering: .acquiring) }

    /// The id of the last event applied, if any.
    var lastAppliedEventID: String? { lastEventID.withLock { $0 } }

    /// Turns streaming off for good.
    /// - Returns: Whether it was on (only the first caller falls back).
    private func turnOff() -> Bool {
        on.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// Starts following the stream in `poller`'s task set; returns once the first connection has brought the
    /// state, or has failed (after the fallback fetch, when the server has no stream).
    func start(_ poller: Poller) async {
        let (settled, continuation) = AsyncStream.makeStream(of: Never.self)
        let current: @Sendable () -> Poller? = { [weak poller] in poller }
        poller.tasks.replace("stream", with: poller.executor.task { await self.follow(current, settled: continuation) })
        for await _ in settled {}
    }

    /// Connects, reads and reconnects until cancelled, refused or fallen back to polling. Finishes `settled`
    /// once the first connection has brought the state or has ended.
    private func follow(_ poller: @escaping @Sendable () -> Poller?, settled: AsyncStream<Never>.Continuation) async {
        defer { settled.finish() }
        var failures = 0
        var serverMinimum: Duration?
        while !Task.isCancelled {
            guard let request = poller().map(request) else { return }
            let (ending, retry) = await read(request, poller: poller, settled: settled)
            if let retry { serverMinimum = .milliseconds(Int64(min(retry, 3_600_000))) }
            switch ending {
            case .cancelled, .refused:
                return
            case .unsupported, .pollingRequested:
                guard turnOff(), let current = poller() else { return }
                await current.fallBackToPolling()
                return
            case .dropped:
                failures = 1
            case .failed:
                failures += 1
            case .resync:
                lastEventID.withLock { $0 = nil }
                failures += 1
            }
            settled.finish()
            let pause = RemoteReconnectDelay.after(
                failures: failures, minimum: options.minimumReconnectDelay, maximum: options.maximumReconnectDelay,
                random: Double.random(in: 0..<1), serverMinimum: serverMinimum)
            do { try await options.clock.sleep(for: pause) } catch { return }
        }
    }

    /// The request for the next connection: the client's headers, `Accept: text/event-stream` and the
    /// `Last-Event-ID` of the last event applied.
    private func request(_ poller: Poller) -> RemoteHTTPRequest {
        var own: [(name: String, value: String)] = [("Accept", "text/event-stream"), ("Cache-Control", "no-cache")]
        if let id = lastEventID.withLock({ $0 }) { own.append(("Last-Event-ID", id)) }
        return RemoteHTTPRequest(method: "GET", url: url, headers: poller.headers(own + poller.settings.fetchHeaders))
    }

    /// Reads one connection to its end, applying its events.
    /// - Returns: How it ended, and the server's `retry:` in milliseconds, if it sent one.
    private func read(
        _ request: RemoteHTTPRequest, poller: @Sendable () -> Poller?, settled: AsyncStream<Never>.Continuation
    ) async -> (Ending, Int?) {
        // `data: ` and the body.
        let lineLimit = min(options.maximumResponseBytes, Int.max - 6) + 6
        var parser = ServerSentEventParser(lastEventID: lastAppliedEventID, lineLimit: lineLimit)
        var opened = false
        let place = url.absoluteString
        for await event in transport.openStream(request, idleTimeout: options.streamIdleTimeout) {
            if Task.isCancelled { break }
            switch event {
            case .response(let status, _) where status == 200:
                opened = true
            case .response(let status, _):
                if status == 404 || status == 405 { return (.unsupported, parser.retryMilliseconds) }
                poller()?.recordFetchFailure(.httpStatus(status, url: place))
                return (status == 401 || status == 403 ? .refused : .failed, parser.retryMilliseconds)
            case .data(let bytes):
                for message in parser.feed(bytes) {
                    switch message.type {
                    case "unleash-connected", "unleash-updated":
                        guard let current = poller() else { return (.cancelled, nil) }
                        do throws(UnleashClientError) {
                            let name = message.lastEventID.map { "\(message.type) event \($0)" } ?? message.type
                            guard !message.isTruncated else {
                                throw .invalidResponse(
                                    "\(name) from \(place) is larger than the limit of \(options.maximumResponseBytes) bytes (UnleashClientOptions.maximumResponseBytes)"
                                )
                            }
                            try current.take(pushed: Data(message.data.utf8), source: "\(name) from \(place)")
                        } catch {
                            current.recordFetchFailure(error)
                            return (.resync, parser.retryMilliseconds)
                        }
                        lastEventID.withLock { $0 = message.lastEventID }
                        if message.type == "unleash-connected" { settled.finish() }
                    case "fetch-mode":
                        if message.data.trimmingCharacters(in: .whitespaces) == "polling" {
                            return (.pollingRequested, parser.retryMilliseconds)
                        }
                    default:
                        // Other events are not for this client (or not yet known): ignored.
                        continue
                    }
                }
            case .finished(let error):
                if let error, error != .cancelled, !Task.isCancelled {
                    poller()?.recordFetchFailure(UnleashClientError(error))
                }
            }
        }
        if Task.isCancelled { return (.cancelled, nil) }
        return (opened ? .dropped : .failed, parser.retryMilliseconds)
    }
}
