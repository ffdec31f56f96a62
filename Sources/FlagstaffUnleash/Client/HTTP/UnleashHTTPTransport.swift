import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends Unleash requests over Foundation's `URLSession` with a hard deadline and a body size limit.
///
/// swift-corelibs-foundation rounds request timeouts down to whole seconds, so the deadline is enforced here
/// by racing the request against a timer; a request that loses runs out on its own (Foundation's whole-second
/// timeout is its backstop) and its answer is dropped. Caching is off: the
/// clients do their own ETag handling.
struct UnleashHTTPTransport: Sendable {
    /// The longest a request may take.
    var timeout: Duration
    /// The largest body accepted; larger answers are ``UnleashClientError/invalidResponse(_:)``.
    var maximumResponseBytes: Int
    /// Where the request runs and resumes (the owner's executor, off the cooperative pool).
    var executor: UnleashExecutor

    /// Sends a request.
    /// - Parameter request: The request.
    /// - Returns: The answer, whatever its status.
    /// - Throws: ``UnleashClientError/timedOut(after:)``, ``UnleashClientError/transport(_:)`` or
    ///   ``UnleashClientError/invalidResponse(_:)`` (oversized body).
    func send(_ request: UnleashHTTPRequest) async throws(UnleashClientError) -> UnleashHTTPResponse {
        let timeout = self.timeout
        let limit = maximumResponseBytes
        let outcome = await UnleashDeadline.run(
            timeout: timeout, onTimeout: .failure(.timedOut(after: timeout)), executor: executor
        ) {
            await Self.perform(request, timeout: timeout, limit: limit)
        }
        return try outcome.get()
    }

    private static func perform(_ request: UnleashHTTPRequest, timeout: Duration, limit: Int) async
        -> Result<UnleashHTTPResponse, UnleashClientError>
    {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        // Foundation's own timeout is a backstop only (whole seconds on Linux); UnleashDeadline is exact.
        urlRequest.timeoutInterval = max(1, seconds.rounded(.up) + 1)
        for field in request.headers { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        urlRequest.httpBody = request.body

        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = urlRequest.timeoutInterval
        configuration.timeoutIntervalForResource = urlRequest.timeoutInterval
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch {
            return .failure(transportError(error, timeout: timeout, url: request.url))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.invalidResponse("not an HTTP response from \(request.url.absoluteString)"))
        }
        if data.count > limit {
            return .failure(.invalidResponse(
                "the body from \(request.url.absoluteString) is \(data.count) bytes, more than the limit of \(limit) bytes"))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return .success(UnleashHTTPResponse(status: http.statusCode, headers: headers, body: data))
    }

    private static func transportError(_ error: any Error, timeout: Duration, url: URL) -> UnleashClientError {
        let host = "\(url.host ?? "host")\(url.port.map { ":\($0)" } ?? "")"
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return .timedOut(after: timeout)
            case .cannotConnectToHost: return .transport("connection refused by \(host)")
            case .networkConnectionLost: return .transport("\(host) closed the connection before a complete response")
            case .badServerResponse, .cannotParseResponse:
                return .transport("bad response from \(host) (connection closed early or malformed HTTP)")
            case .cancelled: return .transport("cancelled")
            default:
                if urlError.localizedDescription.contains("transfer closed") {
                    return .transport("\(host) closed the connection before the whole body arrived (truncated body)")
                }
                return .transport("\(host): URL error \(urlError.code.rawValue): \(urlError.localizedDescription)")
            }
        }
        if error is CancellationError { return .transport("cancelled") }
        return .transport("\(host): \((error as NSError).localizedDescription)")
    }
}
