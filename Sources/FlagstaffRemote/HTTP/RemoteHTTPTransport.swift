import Dispatch
import Flagstaff
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends HTTP requests over Foundation's `URLSession` (FoundationNetworking on Linux) for the remote-config and
/// Unleash modules: one session per transport, so consecutive requests reuse the connection when the server
/// keeps it open.
///
/// Each request has:
/// - an exact deadline: a timer on a private dispatch queue settles the request with
///   ``RemoteHTTPError/timedOut(after:url:)`` and cancels it (Foundation's own timeout is whole seconds on Linux
///   and only a backstop here);
/// - a body limit enforced while the body streams in: once it would pass the limit, the request is settled with
///   ``RemoteHTTPError/bodyTooLarge(url:limit:declared:)`` and cancelled, so the rest is never received
///   (a `Content-Length` over the limit is refused before any body byte);
/// - cancellation: cancelling the calling task settles the request with ``RemoteHTTPError/cancelled`` at once and
///   cancels it.
///
/// Caching and cookies are off (callers do their own ETag handling). The session is invalidated by
/// ``invalidate()`` (owners call it when they stop) and in `deinit`; a later request opens a new one.
package final class RemoteHTTPTransport: Sendable {
    private struct Generation: @unchecked Sendable {
        // @unchecked: URLSession is thread-safe; both values are immutable.
        let session: URLSession
        let exchanges: RemoteHTTPExchanges
    }

    private struct State {
        var generation: Generation?
    }

    /// The longest a stream's warm-up request may take (less when the stream's idle timeout is shorter).
    static let warmUpTimeout: Duration = .seconds(10)
    /// The largest warm-up answer taken in full (a larger one closes its connection).
    static let warmUpBodyLimit = 64 << 10
    /// The most events a stream holds unread (its reader is behind): beyond that it ends with
    /// ``RemoteHTTPError/streamBacklog(url:limit:)``. libcurl hands a body over in pieces of at most 16 KiB, so this
    /// holds at most 16 MiB of body.
    package static let streamBacklogLimit = 1024

    /// The largest body accepted.
    package let maximumResponseBytes: Int
    private let label: String
    /// Deadlines and cancellations of this transport's requests.
    private let queue: DispatchQueue
    private let current = AnnotatedMutex(State())
    /// The origin of the last request that ended leaving its connection open, until the next task starts or a
    /// stream ends: a stream opened then takes that connection. A lock of its own, never held while the session is
    /// called: a stream's end clears it on the session's delegate queue, which must never wait for a thread that
    /// waits for the session (``current`` is held while a task is made, which waits for the session's work queue,
    /// which may wait for the delegate queue: ``RemoteHTTPDelegateQueue``).
    private let idleOrigin = AnnotatedMutex<String?>(nil)

    /// Creates a transport; its session is opened by the first request.
    /// - Parameters:
    ///   - label: Names the transport's dispatch queues, e.g. `flagstaff.firebase`.
    ///   - maximumResponseBytes: The largest body accepted.
    package init(label: String, maximumResponseBytes: Int) {
        self.label = label
        self.maximumResponseBytes = max(0, maximumResponseBytes)
        queue = DispatchQueue(label: "\(label).http-deadlines")
    }

    deinit {
        invalidate()
    }

    /// The most delegate calls that ever waited at once on the current session (``RemoteHTTPDelegateQueue``; for
    /// tests and diagnostics).
    var deepestDelegateBacklog: Int {
        current.withLock { ($0.generation?.session.delegateQueue as? RemoteHTTPDelegateQueue)?.deepestBacklog ?? 0 }
    }

    /// Lets the requests under way finish, then closes the session and its connections. A later request opens a
    /// new session.
    package func invalidate() {
        let generation = current.withLock { current -> Generation? in
            defer {
                current = State()
                idleOrigin.withLock { $0 = nil }
            }
            return current.generation
        }
        generation?.session.finishTasksAndInvalidate()
    }

    /// Sends a request and collects the answer, whatever its status.
    /// - Parameters:
    ///   - request: The request.
    ///   - timeout: The longest the whole exchange may take.
    /// - Returns: The status, lower-cased header fields and body, or why there is none.
    package func send(_ request: RemoteHTTPRequest, timeout: Duration) async -> Result<
        RemoteHTTPResponse, RemoteHTTPError
    > {
        await send(request, timeout: timeout, limit: maximumResponseBytes)
    }

    private func send(_ request: RemoteHTTPRequest, timeout: Duration, limit: Int) async -> Result<
        RemoteHTTPResponse, RemoteHTTPError
    > {
        // Foundation's timeout is a backstop only (whole seconds on Linux); the exchange's deadline is exact.
        let (task, exchanges) = makeTask(request, timeoutSeconds: Self.wholeSeconds(timeout) + 1) { task, exchanges in
            exchanges.open(task, url: request.url, limit: limit, timeout: timeout)
        }
        let id = task.taskIdentifier
        let outcome = await withTaskCancellationHandler {
            if !Task.isCancelled { task.resume() }
            return await exchanges.wait(id)
        } onCancel: {
            exchanges.finish(id, .failure(.cancelled), cancelling: true)
        }
        noteIdleConnection(after: outcome, to: request.url, on: exchanges)
        return outcome
    }

    /// Records that a request to `url` left its connection idle, when its answer did not close it.
    private func noteIdleConnection(
        after outcome: Result<RemoteHTTPResponse, RemoteHTTPError>, to url: URL, on exchanges: RemoteHTTPExchanges
    ) {
        guard case .success(let response) = outcome, response.header("connection")?.lowercased() != "close" else {
            return
        }
        let origin = Self.origin(url)
        current.withLock { current in
            if current.generation?.exchanges === exchanges { idleOrigin.withLock { $0 = origin } }
        }
    }

    /// Starts a long-lived request (an event stream: OFREP's, Unleash streaming, Firebase realtime) on this
    /// transport's session and hands its response over piece by piece (no body limit; the connection fails as timed
    /// out after `idleTimeout` of silence). When the reader falls ``streamBacklogLimit`` events behind, the stream
    /// ends with ``RemoteHTTPError/streamBacklog(url:limit:)`` after the events it holds.
    ///
    /// The stream rides a connection the session has already used: the idle one a request just left (OFREP's
    /// stream after its fetch), or else the one of a warm-up `OPTIONS` request to the stream's URL sent first
    /// (without the request's headers; whatever its answer or failure, the stream is opened next, unless it got no
    /// answer in time: then the stream ends with that ``RemoteHTTPError/timedOut(after:url:)``). With
    /// FoundationNetworking this matters: a stream on a connection whose connect it had to wait for keeps a
    /// write-readiness source armed for as long as the stream lasts (the socket is always writable), which keeps a
    /// core busy in libdispatch (docs/performance.md, "Idle event streams").
    /// - Returns: The events; the stream finishes after ``RemoteHTTPStreamEvent/finished(_:)``. Stopping the
    ///   iteration (or cancelling the iterating task) cancels the request.
    package func openStream(_ request: RemoteHTTPRequest, idleTimeout: Duration) -> AsyncStream<RemoteHTTPStreamEvent> {
        // Bounded: a server that sends faster than the reader reads cannot grow the process without end.
        let (stream, continuation) = AsyncStream.makeStream(
            of: RemoteHTTPStreamEvent.self, bufferingPolicy: .bufferingOldest(Self.streamBacklogLimit))
        let opening = StreamOpening()
        continuation.onTermination = { [weak self] _ in
            opening.end()
            // The connection a request left idle before may be long closed by the time the next stream opens.
            self?.idleOrigin.withLock { $0 = nil }
        }
        let origin = Self.origin(request.url)
        let idle = idleOrigin.withLock { $0 == origin }
        if idle {
            start(request, idleTimeout: idleTimeout, events: continuation, opening: opening)
        } else {
            // On the transport's queues, not in a task: opening a stream never waits for the cooperative pool.
            let warmUp = RemoteHTTPRequest(method: "OPTIONS", url: request.url)
            let timeout = min(idleTimeout, Self.warmUpTimeout)
            let (task, exchanges) = makeTask(warmUp, timeoutSeconds: Self.wholeSeconds(timeout) + 1) {
                task, exchanges in
                exchanges.open(task, url: request.url, limit: Self.warmUpBodyLimit, timeout: timeout) {
                    [weak self] outcome in
                    guard let self else {
                        // The transport is gone, and its session with it.
                        continuation.yield(.finished(.cancelled))
                        return continuation.finish()
                    }
                    if case .failure(let error) = outcome, case .timedOut = error {
                        // No answer at all (a hung server, a stalled TLS handshake): the stream would wait the same
                        // way, on a connection of its own whose connect keeps a core busy for as long as it waits.
                        continuation.yield(.finished(error))
                        return continuation.finish()
                    }
                    noteIdleConnection(after: outcome, to: request.url, on: exchanges)
                    start(request, idleTimeout: idleTimeout, events: continuation, opening: opening)
                }
            }
            if opening.warmingUp(task.taskIdentifier, exchanges: exchanges) { task.resume() }
        }
        return stream
    }

    /// Makes and resumes the task of a stream, unless its consumer has stopped already.
    private func start(
        _ request: RemoteHTTPRequest, idleTimeout: Duration,
        events: AsyncStream<RemoteHTTPStreamEvent>.Continuation, opening: StreamOpening
    ) {
        let (task, exchanges) = makeTask(request, timeoutSeconds: Self.wholeSeconds(idleTimeout)) { task, exchanges in
            exchanges.openStream(task, url: request.url, timeout: idleTimeout, events: events)
        }
        guard opening.started(TaskHandle(task: task), exchanges: exchanges) else {
            exchanges.closeStream(task)
            return
        }
        task.resume()
        if request.body != nil {
            // On a reused connection that the server closes unanswered, libcurl sends the request again on a new
            // one, and FoundationNetworking sends it without its body (it cannot rewind one given as data), so
            // both ends would wait for the idle timeout.
            let deadline = min(idleTimeout, Self.warmUpTimeout)
            exchanges.queue.asyncAfter(deadline: .now() + RemoteHTTPExchanges.dispatchInterval(deadline)) {
                exchanges.expireUnanswered(task, after: deadline)
            }
        }
    }

    /// The origin of a URL (scheme, host and port, the default port when none is written), as connections are
    /// shared and credentials are kept (RFC 6454).
    package static func origin(_ url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    /// Makes the task of `request` on the current session (opening one if there is none) and hands it to
    /// `register` before it is resumed. Under the lock, so that ``invalidate()`` cannot invalidate the session in
    /// between (FoundationNetworking traps when a task is made on an invalidated session).
    private func makeTask(
        _ request: RemoteHTTPRequest, timeoutSeconds: Double,
        register: (URLSessionDataTask, RemoteHTTPExchanges) -> Void
    ) -> (URLSessionDataTask, RemoteHTTPExchanges) {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        urlRequest.timeoutInterval = max(1, timeoutSeconds)
        for field in request.headers { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body
        return current.withLock { current in
            let generation = current.generation ?? makeGeneration()
            current.generation = generation
            // This task may take the idle connection.
            idleOrigin.withLock { $0 = nil }
            let task = generation.session.dataTask(with: urlRequest)
            register(task, generation.exchanges)
            return (task, generation.exchanges)
        }
    }

    /// `duration` in whole seconds, rounded up.
    private static func wholeSeconds(_ duration: Duration) -> Double {
        (Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18).rounded(.up)
    }

    /// A task, for cancelling it from a termination handler.
    private struct TaskHandle: @unchecked Sendable {
        // @unchecked: URLSession tasks are thread-safe; the reference is immutable.
        let task: URLSessionDataTask
    }

    /// One stream between ``openStream(_:idleTimeout:)`` and its end: its warm-up, then its task; ending it (the
    /// consumer stopped) cancels whichever is under way, and a task started after the end is closed at once.
    private final class StreamOpening: Sendable {
        private struct State {
            var ended = false
            var warmUp: (id: Int, exchanges: RemoteHTTPExchanges)?
            var task: (handle: TaskHandle, exchanges: RemoteHTTPExchanges)?
        }

        private let state = AnnotatedMutex(State())

        /// Records the warm-up exchange; `false` when the stream has ended already (it is settled then).
        func warmingUp(_ id: Int, exchanges: RemoteHTTPExchanges) -> Bool {
            let ended = state.withLock { state -> Bool in
                state.warmUp = (id, exchanges)
                return state.ended
            }
            if ended { exchanges.finish(id, .failure(.cancelled), cancelling: true) }
            return !ended
        }

        /// Records the stream's task; `false` when the stream has ended already.
        func started(_ handle: TaskHandle, exchanges: RemoteHTTPExchanges) -> Bool {
            state.withLock { state -> Bool in
                guard !state.ended else { return false }
                state.task = (handle, exchanges)
                return true
            }
        }

        func end() {
            let (warmUp, task) = state.withLock { state in
                state.ended = true
                return (state.warmUp, state.task)
            }
            if let warmUp { warmUp.exchanges.finish(warmUp.id, .failure(.cancelled), cancelling: true) }
            if let task { task.exchanges.closeStream(task.handle.task) }
        }
    }

    private func makeGeneration() -> Generation {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let exchanges = RemoteHTTPExchanges(queue: queue, delegateQueue: DispatchQueue(label: "\(label).http"))
        let delegateQueue = RemoteHTTPDelegateQueue()
        delegateQueue.name = "\(label).http"
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.underlyingQueue = exchanges.delegateQueue
        let session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: delegateQueue)
        return Generation(session: session, exchanges: exchanges)
    }
}
