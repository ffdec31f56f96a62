import FlagstaffRemote
import Foundation

/// Why an Unleash request failed or its answer could not be used.
///
/// Every failure reaches subscribers as an ``UnleashClientEvent/error(_:)`` event; none of them replaces the
/// toggles the client already has (bootstrap, persisted or last fetched).
///
/// A struct rather than an enum, so that a new kind of failure can be added without breaking code that handles
/// these errors: ask its properties (``status``, ``message``, ``stopsPolling``, ``isTimedOut``, …) instead of
/// matching cases. The static members (``httpStatus(_:url:)``, …) make the errors, as the cases of an enum would.
public struct UnleashClientError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case httpStatus(Int, url: String)
        case timedOut(after: Duration)
        case transport
        case invalidResponse
        case persistence
        case invalidBootstrap
        case invalidArgument
    }

    private let code: Code
    /// What went wrong, as the message of ``transport(_:)``, ``invalidResponse(_:)``, ``persistence(_:)``,
    /// ``invalidBootstrap(_:)`` and ``invalidArgument(_:)`` says it; empty for an HTTP status or a timeout.
    public let message: String

    private init(_ code: Code, message: String = "") {
        self.code = code
        self.message = message
    }

    /// The server answered with a status the client cannot use.
    ///
    /// 401 and 403 stop polling (the key is wrong and retrying cannot help); 404, 429 and 5xx make the client back
    /// off, as Unleash's Node SDK does; anything else is retried at the normal interval. Metrics posts follow the
    /// same rules.
    public static func httpStatus(_ status: Int, url: String) -> UnleashClientError {
        UnleashClientError(.httpStatus(status, url: url))
    }

    /// No complete answer arrived within the timeout.
    public static func timedOut(after timeout: Duration) -> UnleashClientError {
        UnleashClientError(.timedOut(after: timeout))
    }

    /// The connection failed: refused, reset, closed early, truncated body, DNS, TLS.
    public static func transport(_ message: String) -> UnleashClientError {
        UnleashClientError(.transport, message: message)
    }

    /// The answer arrived but is unusable: malformed or truncated JSON, wrong shape, too large.
    public static func invalidResponse(_ message: String) -> UnleashClientError {
        UnleashClientError(.invalidResponse, message: message)
    }

    /// Toggles could not be read from or written to the persistence directory.
    public static func persistence(_ message: String) -> UnleashClientError {
        UnleashClientError(.persistence, message: message)
    }

    /// A bootstrap document is unusable; the message names the file and the JSON path.
    public static func invalidBootstrap(_ message: String) -> UnleashClientError {
        UnleashClientError(.invalidBootstrap, message: message)
    }

    /// An argument of the client is unusable (an `unleashUrl` that is not an absolute http or https URL); the
    /// message names the argument and what was expected.
    public static func invalidArgument(_ message: String) -> UnleashClientError {
        UnleashClientError(.invalidArgument, message: message)
    }

    /// The HTTP status the server answered, for ``httpStatus(_:url:)``.
    public var status: Int? {
        if case .httpStatus(let status, _) = code { return status }
        return nil
    }

    /// The URL that answered with ``status``.
    public var url: String? {
        if case .httpStatus(_, let url) = code { return url }
        return nil
    }

    /// Whether no complete answer arrived within the timeout (``timeout`` says how long that was).
    public var isTimedOut: Bool { timeout != nil }

    /// For a timeout, how long the client waited.
    public var timeout: Duration? {
        if case .timedOut(let after) = code { return after }
        return nil
    }

    /// Whether the connection failed.
    public var isTransport: Bool { code == .transport }

    /// Whether the answer arrived but is unusable.
    public var isInvalidResponse: Bool { code == .invalidResponse }

    /// Whether toggles could not be read from or written to the persistence directory.
    public var isPersistence: Bool { code == .persistence }

    /// Whether a bootstrap document is unusable.
    public var isInvalidBootstrap: Bool { code == .invalidBootstrap }

    /// Whether an argument of the client is unusable.
    public var isInvalidArgument: Bool { code == .invalidArgument }

    /// Whether this failure stops polling (HTTP 401 or 403) until a request succeeds again.
    public var stopsPolling: Bool {
        status == 401 || status == 403
    }

    /// Whether this failure makes the client back off (HTTP 404, 429 or 5xx).
    public var triggersBackoff: Bool {
        guard let status else { return false }
        return [404, 429].contains(status) || (500...599).contains(status)
    }

    /// A one-line explanation such as `HTTP 503 from http://…/proxy`.
    public var description: String {
        switch code {
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
        case .transport:
            return "connection failed: \(message)"
        case .invalidResponse:
            return "invalid response: \(message)"
        case .persistence:
            return "persistence: \(message)"
        case .invalidBootstrap:
            return "invalid bootstrap: \(message)"
        case .invalidArgument:
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
