import Dispatch
import Flagstaff
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a long-lived HTTP response delivers, in order: the status and headers, body bytes as they arrive, and
/// the end.
package enum RemoteHTTPStreamEvent: Sendable, Equatable {
    /// The status line and headers (names lower-cased).
    case response(status: Int, headers: [String: String])
    /// The next bytes of the body, as they arrived.
    case data(Data)
    /// The exchange ended: `nil` when the server closed the body normally, else why it failed.
    case finished(RemoteHTTPError?)
}

/// Opens long-lived HTTP exchanges (a realtime invalidation stream) and hands their body over piece by piece,
/// where ``RemoteHTTPTransport`` collects a whole body.
///
/// Each ``open(_:idleTimeout:)`` gets a session of its own, closed when the exchange ends or the consumer stops
/// iterating (the task is cancelled and the connection closed at once). Caching and cookies are off.
package final class RemoteHTTPStreamTransport: Sendable {
    private let label: String
    /// Where tasks are cancelled: never inline from a termination handler (FoundationNetworking's cancel waits
    /// on the session's queue).
    ///
    /// A stream's end cancels its one task and then uses `finishTasksAndInvalidate()`, never
    /// `invalidateAndCancel()`: FoundationNetworking's `invalidateAndCancel()` walks the session's task table off
    /// the session's queue, and traps when the task completes (and leaves the table) during that walk.
    private let queue: DispatchQueue

    /// Creates a transport.
    /// - Parameter label: Names its dispatch queues.
    package init(label: String) {
        self.label = label
        queue = DispatchQueue(label: "\(label).stream")
    }

    /// Starts a request and streams its response.
    ///
    /// - Parameters:
    ///   - request: The request.
    ///   - idleTimeout: How long the connection may stay silent before it fails as timed out.
    /// - Returns: The events; the stream finishes after ``RemoteHTTPStreamEvent/finished(_:)``. Stopping the
    ///   iteration (or cancelling the iterating task) cancels the request.
    package func open(_ request: RemoteHTTPRequest, idleTimeout: Duration) -> AsyncStream<RemoteHTTPStreamEvent> {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        let seconds = Double(idleTimeout.components.seconds) + Double(idleTimeout.components.attoseconds) / 1e18
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up))
        for field in request.headers { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body

        let (stream, continuation) = AsyncStream.makeStream(of: RemoteHTTPStreamEvent.self)
        let delegate = StreamDelegate(continuation: continuation, url: request.url, timeout: idleTimeout)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = urlRequest.timeoutInterval
        let delegateQueue = OperationQueue()
        delegateQueue.name = "\(label).stream"
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.underlyingQueue = delegate.queue
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
        let task = session.dataTask(with: urlRequest)
        let cancelQueue = queue
        let handle = SessionHandle(session: session, task: task)
        continuation.onTermination = { _ in
            cancelQueue.async {
                handle.task.cancel()
                handle.session.finishTasksAndInvalidate()
            }
        }
        task.resume()
        return stream
    }

    /// The session and task of one stream, for cancelling.
    private struct SessionHandle: @unchecked Sendable {
        // @unchecked: URLSession and its tasks are thread-safe; both references are immutable.
        let session: URLSession
        let task: URLSessionDataTask
    }

    /// Forwards one exchange's delegate calls to its continuation.
    private final class StreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked: the continuation is thread-safe; everything else is immutable.
        let continuation: AsyncStream<RemoteHTTPStreamEvent>.Continuation
        let url: URL
        let timeout: Duration
        /// The serial queue the session calls this delegate on (retained here; see `RemoteHTTPExchanges`).
        let queue = DispatchQueue(label: "flagstaff.http.stream-delegate")

        init(continuation: AsyncStream<RemoteHTTPStreamEvent>.Continuation, url: URL, timeout: Duration) {
            self.continuation = continuation
            self.url = url
            self.timeout = timeout
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            guard let http = response as? HTTPURLResponse else {
                continuation.yield(.finished(.notHTTP(url)))
                continuation.finish()
                completionHandler(.cancel)
                return
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            continuation.yield(.response(status: http.statusCode, headers: headers))
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            continuation.yield(.data(data))
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            continuation.yield(.finished(error.map { RemoteHTTPError.from($0, url: url, timeout: timeout) }))
            continuation.finish()
            session.finishTasksAndInvalidate()
        }
    }
}
