import Dispatch
import Flagstaff
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The delegate of one ``RemoteHTTPTransport`` session: it keeps the state of each request by task identifier,
/// collects bodies up to their limit and hands each waiting caller exactly one outcome.
///
/// A `URLSession` retains its delegate until it is invalidated, so this object holds nothing that owns the session
/// (or the transport): the transport can be released, and its `deinit` invalidates the session.
final class RemoteHTTPExchanges: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: the only mutable state is inside `table` (a lock); the queues are immutable and thread-safe.
    typealias Outcome = Result<RemoteHTTPResponse, RemoteHTTPError>

    private struct Exchange {
        let url: URL
        let limit: Int
        let timeout: Duration
        let task: URLSessionDataTask
        var response: HTTPURLResponse?
        var body = Data()
        /// The waiting caller, once it waits.
        var continuation: CheckedContinuation<Outcome, Never>?
        /// Called with the outcome instead, for an exchange nobody awaits (a stream's warm-up).
        var completion: (@Sendable (Outcome) -> Void)?
        /// The outcome when it came before the caller waited.
        var outcome: Outcome?
    }

    /// What to do outside the lock once an exchange is settled.
    private struct Delivery {
        var continuation: CheckedContinuation<Outcome, Never>?
        var completion: (@Sendable (Outcome) -> Void)?
        var outcome: Outcome
        var cancel: URLSessionDataTask?
    }

    /// A long-lived exchange whose body is handed over piece by piece (``RemoteHTTPTransport/openStream(_:idleTimeout:)``).
    private struct StreamExchange {
        let url: URL
        let timeout: Duration
        let events: AsyncStream<RemoteHTTPStreamEvent>.Continuation
        /// Whether its response has begun.
        var answered = false
    }

    private let table = AnnotatedMutex([Int: Exchange]())
    private let streams = AnnotatedMutex([Int: StreamExchange]())
    /// Where deadlines fire and tasks are cancelled: a private serial queue, never the cooperative pool.
    let queue: DispatchQueue
    /// Where the session calls this delegate. Held here because `OperationQueue.underlyingQueue` does not retain
    /// it, and the session keeps this delegate (and its operation queue) as long as it may call them.
    let delegateQueue: DispatchQueue

    init(queue: DispatchQueue, delegateQueue: DispatchQueue) {
        self.queue = queue
        self.delegateQueue = delegateQueue
    }

    /// Registers a task that is not resumed yet, and arms its deadline. With `completion`, the outcome goes to it
    /// (on ``queue``) instead of to a caller of ``wait(_:)``.
    func open(
        _ task: URLSessionDataTask, url: URL, limit: Int, timeout: Duration,
        completion: (@Sendable (Outcome) -> Void)? = nil
    ) {
        let id = task.taskIdentifier
        table.withLock {
            $0[id] = Exchange(url: url, limit: limit, timeout: timeout, task: task, completion: completion)
        }
        queue.asyncAfter(deadline: .now() + Self.dispatchInterval(timeout)) { [weak self] in
            self?.finish(id, .failure(.timedOut(after: timeout, url: url)), cancelling: true)
        }
    }

    /// Registers a streaming task that is not resumed yet: its events go to `events` until it ends or
    /// ``closeStream(_:)``.
    func openStream(
        _ task: URLSessionDataTask, url: URL, timeout: Duration, events: AsyncStream<RemoteHTTPStreamEvent>.Continuation
    ) {
        streams.withLock { $0[task.taskIdentifier] = StreamExchange(url: url, timeout: timeout, events: events) }
    }

    /// Ends a stream whose response has not begun as timed out after `deadline`, and cancels its task.
    func expireUnanswered(_ task: URLSessionDataTask, after deadline: Duration) {
        let expired = streams.withLock { streams -> StreamExchange? in
            guard let stream = streams[task.taskIdentifier], !stream.answered else { return nil }
            streams[task.taskIdentifier] = nil
            return stream
        }
        guard let expired else { return }
        expired.events.yield(.finished(.timedOut(after: deadline, url: expired.url)))
        expired.events.finish()
        task.cancel()
    }

    /// Stops a streaming task (its consumer stopped): no more events; the task is cancelled on ``queue``.
    func closeStream(_ task: URLSessionDataTask) {
        _ = streams.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        queue.async { task.cancel() }
    }

    /// The stream of a task, if it is one.
    private func stream(_ id: Int) -> StreamExchange? {
        streams.withLock { $0[id] }
    }

    /// Ends a stream with `error` (`nil`: the server ended the body).
    private func endStream(_ id: Int, _ error: RemoteHTTPError?) {
        guard let stream = streams.withLock({ $0.removeValue(forKey: id) }) else { return }
        stream.events.yield(.finished(error))
        stream.events.finish()
    }

    /// Waits for the outcome of an opened task.
    func wait(_ id: Int) async -> Outcome {
        await withCheckedContinuation { continuation in
            let early = table.withLock { table -> Outcome? in
                guard let exchange = table[id] else { return .failure(.cancelled) }
                if let outcome = exchange.outcome {
                    table[id] = nil
                    return outcome
                }
                table[id]?.continuation = continuation
                return nil
            }
            if let early { continuation.resume(returning: early) }
        }
    }

    /// Settles an exchange once: later calls (and later delegate callbacks) do nothing. With `cancelling`, the
    /// task is cancelled on ``queue`` (never inline: FoundationNetworking's cancel waits on the session's queue,
    /// which can deadlock from a task-cancellation handler).
    func finish(_ id: Int, _ outcome: Outcome, cancelling: Bool) {
        let delivery = table.withLock { table -> Delivery? in
            guard var exchange = table[id], exchange.outcome == nil else { return nil }
            let delivery = Delivery(
                continuation: exchange.continuation, completion: exchange.completion, outcome: outcome,
                cancel: cancelling ? exchange.task : nil)
            if exchange.continuation == nil && exchange.completion == nil {
                exchange.outcome = outcome
                table[id] = exchange
            } else {
                table[id] = nil
            }
            return delivery
        }
        guard let delivery else { return }
        if let task = delivery.cancel { queue.async { task.cancel() } }
        delivery.continuation?.resume(returning: delivery.outcome)
        if let completion = delivery.completion {
            let outcome = delivery.outcome
            queue.async { completion(outcome) }
        }
    }

    /// Settles every exchange still open (the session became invalid).
    private func finishAll() {
        let ids = table.withLock { Array($0.keys) }
        for id in ids { finish(id, .failure(.cancelled), cancelling: false) }
        for id in streams.withLock({ Array($0.keys) }) { endStream(id, .cancelled) }
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        if let stream = streams.withLock({ streams -> StreamExchange? in
            streams[id]?.answered = true
            return streams[id]
        }) {
            guard let http = response as? HTTPURLResponse else {
                endStream(id, .notHTTP(stream.url))
                completionHandler(.cancel)
                return
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            stream.events.yield(.response(status: http.statusCode, headers: headers))
            completionHandler(.allow)
            return
        }
        let failure = table.withLock { table -> RemoteHTTPError? in
            guard let exchange = table[id], exchange.outcome == nil else { return .cancelled }
            guard let http = response as? HTTPURLResponse else { return .notHTTP(exchange.url) }
            if http.expectedContentLength > Int64(exchange.limit) {
                return .bodyTooLarge(url: exchange.url, limit: exchange.limit, declared: http.expectedContentLength)
            }
            table[id]?.response = http
            return nil
        }
        if let failure {
            // `.cancel` alone does not stop FoundationNetworking's transfer; cancelling the task closes the connection.
            finish(id, .failure(failure), cancelling: true)
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        if let stream = stream(id) {
            // The last free place is kept for the end: the reader learns why the stream stopped.
            if case .enqueued(let free) = stream.events.yield(.data(data)), free > 1 { return }
            endStream(id, .streamBacklog(url: stream.url, limit: RemoteHTTPTransport.streamBacklogLimit))
            queue.async { dataTask.cancel() }
            return
        }
        let failure = table.withLock { table -> RemoteHTTPError? in
            // Only values are taken out: a copy of the exchange alive during the append would share its body, and
            // the append would copy the whole body each time (13 s for 16 MiB in 16 KiB pieces).
            guard let (url, limit, received) = table[id].map({ ($0.url, $0.limit, $0.body.count) }),
                table[id]?.outcome == nil
            else { return nil }
            guard received + data.count <= limit else { return .bodyTooLarge(url: url, limit: limit, declared: nil) }
            table[id]?.body.append(data)
            return nil
        }
        // Stop reading at once: the rest of the body is never received.
        if let failure { finish(id, .failure(failure), cancelling: true) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        if let stream = stream(id) {
            endStream(id, error.map { RemoteHTTPError.from($0, url: stream.url, timeout: stream.timeout) })
            return
        }
        let outcome = table.withLock { table -> Outcome? in
            guard let exchange = table[id], exchange.outcome == nil else { return nil }
            if let error { return .failure(RemoteHTTPError.from(error, url: exchange.url, timeout: exchange.timeout)) }
            guard let response = exchange.response else { return .failure(.notHTTP(exchange.url)) }
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return .success(RemoteHTTPResponse(status: response.statusCode, headers: headers, body: exchange.body))
        }
        if let outcome { finish(id, outcome, cancelling: false) }
    }

    /// Follows a redirect, without the request's own header fields when it leaves the first request's origin
    /// (scheme, host and port) at this hop or an earlier one: they carry the client's credentials (`Authorization`,
    /// an API key, a token), which belong to the server they were configured for. curl and browsers drop
    /// `Authorization` and cookies; the transport cannot tell which of a client's fields are credentials, so it keeps
    /// only those that carry none.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(Self.redirect(request, from: response.url, original: task.originalRequest?.url))
    }

    /// The header fields a redirect to another origin keeps.
    static let crossOriginHeaderFields: Set<String> = [
        "accept", "accept-encoding", "accept-language", "cache-control", "content-type", "last-event-id",
        "user-agent",
    ]

    /// `request` as sent after a redirect from `hop` (the answer that redirected) when the exchange began at
    /// `original`: unchanged within the origin, without credentials once it has left it.
    static func redirect(_ request: URLRequest, from hop: URL?, original: URL?) -> URLRequest {
        let first = original.map(RemoteHTTPTransport.origin)
        guard let url = request.url,
            RemoteHTTPTransport.origin(url) != first || hop.map(RemoteHTTPTransport.origin) != first
        else { return request }
        var stripped = request
        for name in (request.allHTTPHeaderFields ?? [:]).keys
        where !crossOriginHeaderFields.contains(name.lowercased()) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        finishAll()
    }

    /// A duration as a dispatch interval, clamped to what dispatch can represent.
    static func dispatchInterval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = max(0, seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let nanoseconds =
            overflow ? Int64.max : whole.addingReportingOverflow(max(0, attoseconds) / 1_000_000_000).partialValue
        return .nanoseconds(Int(clamping: nanoseconds))
    }
}
