import FlagstaffRemote
import Foundation

/// Why an Unleash request failed or its answer could not be used.
///
/// Every failure reaches subscribers as an ``UnleashClientEvent/error(_:)`` event; none of them replaces the
/// toggles the client already has (bootstrap, persisted or last fetched).
public enum UnleashClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with a status the client cannot use.
    ///
    /// 401 and 403 stop polling (the key is wrong and retrying cannot help); 404, 429 and 5xx make the client back
    /// off, as Unleash's Node SDK does; anything else is retried at the normal interval. Metrics posts follow the
    /// same rules.
    case httpStatus(Int, url: String)
    /// No complete answer arrived within the timeout.
    case timedOut(after: Duration)
    /// The connection failed: refused, reset, closed early, truncated body, DNS, TLS.
    case transport(String)
    /// The answer arrived but is unusable: malformed or truncated JSON, wrong shape, too large.
    case invalidResponse(String)
    /// Toggles could not be read from or written to the persistence directory.
    case persistence(String)
    /// A bootstrap document is unusable; the message names the file and the JSON path.
    case invalidBootstrap(String)
    /// An argument of the client is unusable (an `unleashUrl` that is not an absolute http or https URL); the
    /// message names the argument and what was expected.
    case invalidArgument(String)

    /// Whether this failure stops polling (HTTP 401 or 403) until a request succeeds again.
    public var stopsPolling: Bool {
        if case .httpStatus(let status, _) = self { return status == 401 || status == 403 }
        return false
    }

    /// Whether this failure makes the client back off (HTTP 404, 429 or 5xx).
    public var triggersBackoff: Bool {
        if case .httpStatus(let status, _) = self {
            return [404, 429].contains(status) || (500...599).contains(status)
        }
        return false
    }

    /// A one-line explanation such as `HTTP 503 from http://…/proxy`.
    public var description: String {
        switch self {
        case .httpStatus(let status, let url):
            let hint: String
            switch status {
            case 401, 403: hint = " (check the client key); stopped"
            case 404: hint = " (check the URL); backing off"
            case 429: hint = " (rate limited); backing off"
            case 500...599: hint = "; backing off"
            default: hint = ""
            }
            return "HTTP \(status) from \(url)\(hint)"
        case .timedOut(let after):
            return "timed out after \(after.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))"
        case .transport(let message):
            return "connection failed: \(message)"
        case .invalidResponse(let message):
            return "invalid response: \(message)"
        case .persistence(let message):
            return "persistence: \(message)"
        case .invalidBootstrap(let message):
            return "invalid bootstrap: \(message)"
        case .invalidArgument(let message):
            return "invalid argument: \(message)"
        }
    }
}

extension UnleashClientError {
    /// The shared transport's failure: `timedOut`, `invalidResponse` for a body that is not HTTP or too large,
    /// else `transport`, with the transport's message (it names the host, or the URL and the limit).
    init(_ error: RemoteHTTPError) {
        switch error {
        case .timedOut(let after, _): self = .timedOut(after: after)
        case .notHTTP, .bodyTooLarge: self = .invalidResponse(error.description)
        default: self = .transport(error.description)
        }
    }
}

/// A failure reported by an ``UnleashClient`` or ``UnleashServerClient``: what was being done and what went wrong.
public struct UnleashClientFailure: Sendable, Hashable, CustomStringConvertible {
    /// What the client was doing.
    public enum Operation: String, Sendable, Hashable {
        /// Fetching toggles (frontend API) or features (client API).
        case fetch
        /// Posting usage metrics.
        case metrics
        /// Registering the application (server-side mode).
        case register
        /// Persisting or loading last-known-good toggles.
        case persist
        /// Registering toggles as registry flags.
        case registry
    }

    /// What the client was doing.
    public var operation: Operation
    /// What went wrong.
    public var error: UnleashClientError

    /// Creates a failure.
    /// - Parameters:
    ///   - operation: What the client was doing.
    ///   - error: What went wrong.
    public init(operation: Operation, error: UnleashClientError) {
        self.operation = operation
        self.error = error
    }

    /// `fetch: HTTP 503 from …`.
    public var description: String { "\(operation.rawValue): \(error)" }
}
