import Flagstaff
import FlagstaffRemote
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Performs one HTTP request with `URLSession`, stopping as soon as the body exceeds a size limit.
///
/// `URLSession.data(for:)` buffers the whole body before the caller can look at it; this transport streams it
/// through a delegate, cancels the request when `Content-Length` or the received bytes pass the limit, and
/// cancels it when the calling task is cancelled (e.g. by ``RemoteConfig``'s timeout).
enum FirebaseHTTPTransport {
    /// The parts of a completed response the parser needs.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// Sends `request` and collects the response.
    ///
    /// - Parameters:
    ///   - request: The request (method, headers, body, timeout).
    ///   - maximumBytes: The largest body accepted.
    ///   - timeout: The caller's timeout in seconds, for the error message.
    /// - Returns: Status, headers and body.
    /// - Throws: ``RemoteConfigProviderError`` for transport failures, timeouts and oversized bodies.
    static func send(_ request: URLRequest, maximumBytes: Int, timeout: TimeInterval)
        async throws(RemoteConfigProviderError) -> Response {
        let collector = Collector(maximumBytes: maximumBytes, timeout: timeout)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = request.timeoutInterval
        configuration.timeoutIntervalForResource = request.timeoutInterval
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let result: Result<Response, RemoteConfigProviderError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request)
                collector.start(task, continuation: continuation)
            }
        } onCancel: {
            collector.cancel()
        }
        return try result.get()
    }

    /// The session delegate: accumulates the body and resumes the waiting task exactly once.
    private final class Collector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked: all mutable state is inside `state` (a lock); the other properties are immutable.
        private struct State {
            var continuation: CheckedContinuation<Result<Response, RemoteConfigProviderError>, Never>?
            var task: URLSessionDataTask?
            var response: HTTPURLResponse?
            var body = Data()
            var failure: RemoteConfigProviderError?
            var cancelledEarly = false
        }

        private let state = AnnotatedMutex(State())
        private let maximumBytes: Int
        private let timeout: TimeInterval

        init(maximumBytes: Int, timeout: TimeInterval) {
            self.maximumBytes = maximumBytes
            self.timeout = timeout
        }

        func start(_ task: URLSessionDataTask,
                   continuation: CheckedContinuation<Result<Response, RemoteConfigProviderError>, Never>) {
            let cancelled = state.withLock { current in
                current.continuation = continuation
                current.task = task
                return current.cancelledEarly
            }
            if cancelled {
                finish(with: .transport("cancelled"))
                return
            }
            task.resume()
        }

        func cancel() {
            let task = state.withLock { current in
                current.cancelledEarly = true
                return current.task
            }
            task?.cancel()
        }

        private func fail(_ failure: RemoteConfigProviderError, task: URLSessionTask) {
            state.withLock { current in
                if current.failure == nil { current.failure = failure }
            }
            task.cancel()
        }

        private func finish(with failure: RemoteConfigProviderError?) {
            let (continuation, result) = state.withLock { current -> (CheckedContinuation<Result<Response, RemoteConfigProviderError>, Never>?, Result<Response, RemoteConfigProviderError>) in
                defer { current.continuation = nil }
                if let failure = current.failure ?? failure { return (current.continuation, .failure(failure)) }
                guard let response = current.response else {
                    return (current.continuation, .failure(.invalidResponse("not an HTTP response")))
                }
                var headers: [String: String] = [:]
                for (name, value) in response.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name] = value }
                }
                return (current.continuation, .success(Response(status: response.statusCode, headers: headers, body: current.body)))
            }
            continuation?.resume(returning: result)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            guard let http = response as? HTTPURLResponse else {
                fail(.invalidResponse("not an HTTP response"), task: dataTask)
                completionHandler(.cancel)
                return
            }
            state.withLock { $0.response = http }
            if http.expectedContentLength > Int64(maximumBytes) {
                fail(.invalidResponse("body of \(http.expectedContentLength) bytes exceeds the limit of \(maximumBytes) bytes"),
                     task: dataTask)
                completionHandler(.cancel)
                return
            }
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            let size = state.withLock { current -> Int in
                current.body.append(data)
                return current.body.count
            }
            if size > maximumBytes {
                fail(.invalidResponse("body exceeds the limit of \(maximumBytes) bytes"), task: dataTask)
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            finish(with: error.map { Self.transportError($0, timeout: timeout) })
        }

        static func transportError(_ error: any Error, timeout: TimeInterval) -> RemoteConfigProviderError {
            guard let urlError = error as? URLError else { return .transport((error as NSError).localizedDescription) }
            switch urlError.code {
            case .timedOut:
                return .timedOut(after: timeout)
            case .cannotConnectToHost:
                return .transport("connection refused (\(urlError.failingURL?.host ?? "host"))")
            case .networkConnectionLost:
                return .transport("connection lost before a complete response")
            case .badServerResponse, .cannotParseResponse:
                return .transport("bad server response (connection closed early or malformed HTTP)")
            case .cancelled:
                return .transport("cancelled")
            default:
                return .transport("URL error \(urlError.code.rawValue): \(urlError.localizedDescription)")
            }
        }
    }
}
