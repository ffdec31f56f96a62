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

    /// The largest body accepted.
    package let maximumResponseBytes: Int
    private let label: String
    /// Deadlines and cancellations of this transport's requests.
    private let queue: DispatchQueue
    private let current = AnnotatedMutex<Generation?>(nil)

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

    /// Lets the requests under way finish, then closes the session and its connections. A later request opens a
    /// new session.
    package func invalidate() {
        let generation = current.withLock { current -> Generation? in
            defer { current = nil }
            return current
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
        let limit = maximumResponseBytes
        // Foundation's timeout is a backstop only (whole seconds on Linux); the exchange's deadline is exact.
        let (task, exchanges) = makeTask(request, timeoutSeconds: Self.wholeSeconds(timeout) + 1) { task, exchanges in
            exchanges.open(task, url: request.url, limit: limit, timeout: timeout)
        }
        let id = task.taskIdentifier
        return await withTaskCancellationHandler {
            if !Task.isCancelled { task.resume() }
            return await exchanges.wait(id)
        } onCancel: {
            exchanges.finish(id, .failure(.cancelled), cancelling: true)
        }
    }

    /// Starts a long-lived request (an event stream: OFREP's, Unleash streaming, Firebase realtime) on this
    /// transport's session and hands its response over piece by piece (no body limit; the connection fails as timed
    /// out after `idleTimeout` of silence). A reconnection takes the last connection if it is idle.
    ///
    /// On the session of ``send(_:timeout:)``: a stream opened after a request takes that request's idle
    /// connection. With FoundationNetworking this matters: a stream on a connection it has to open keeps a
    /// write-readiness source armed for as long as the stream lasts (the socket is always writable), which keeps a
    /// core busy in libdispatch (docs/performance.md, "A key press to a linked app").
    /// - Returns: The events; the stream finishes after ``RemoteHTTPStreamEvent/finished(_:)``. Stopping the
    ///   iteration (or cancelling the iterating task) cancels the request.
    package func openStream(_ request: RemoteHTTPRequest, idleTimeout: Duration) -> AsyncStream<RemoteHTTPStreamEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: RemoteHTTPStreamEvent.self)
        let (task, exchanges) = makeTask(request, timeoutSeconds: Self.wholeSeconds(idleTimeout)) { task, exchanges in
            exchanges.openStream(task, url: request.url, timeout: idleTimeout, events: continuation)
        }
        let handle = TaskHandle(task: task)
        continuation.onTermination = { _ in exchanges.closeStream(handle.task) }
        task.resume()
        return stream
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
            let generation = current ?? makeGeneration()
            current = generation
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

    private func makeGeneration() -> Generation {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let exchanges = RemoteHTTPExchanges(queue: queue, delegateQueue: DispatchQueue(label: "\(label).http"))
        let delegateQueue = OperationQueue()
        delegateQueue.name = "\(label).http"
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.underlyingQueue = exchanges.delegateQueue
        let session = URLSession(configuration: configuration, delegate: exchanges, delegateQueue: delegateQueue)
        return Generation(session: session, exchanges: exchanges)
    }
}
