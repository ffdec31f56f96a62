import Foundation

extension RemoteConfigProviderError {
    /// A ``RemoteHTTPTransport`` failure as a provider error, with the transport's own message (it names the host,
    /// or the URL and the limit), so every provider on the transport reports a failure in the same words.
    ///
    /// The deadline becomes ``timedOut(after:)`` with the request's `timeout`; an answer that is not HTTP or is
    /// too large becomes ``invalidResponse(_:)``; everything else (refused, closed, truncated, cancelled, other
    /// URL errors) becomes ``transport(_:)``.
    /// - Parameters:
    ///   - error: The transport's failure.
    ///   - timeout: The request's timeout in seconds, as the provider was asked.
    package init(_ error: RemoteHTTPError, timeout: TimeInterval) {
        switch error {
        case .timedOut: self = .timedOut(after: timeout)
        case .notHTTP, .bodyTooLarge: self = .invalidResponse(error.description)
        default: self = .transport(error.description)
        }
    }
}
