import Foundation

/// A service that can fetch a remote config template: the seam any backend plugs into.
///
/// ``RemoteConfig`` owns everything around a fetch: the minimum fetch interval, throttling and exponential
/// backoff, persistence, activation and listeners. A provider only performs one request and reports what came
/// back. Implementations must be `Sendable`; ``RemoteConfig`` never calls ``fetch(_:)`` concurrently on the
/// same instance (fetches are coalesced), but may call it from any task.
///
/// ```swift
/// struct StaticProvider: RemoteConfigProvider {
///     let name = "static"
///     func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse {
///         RemoteConfigFetchResponse(content: .entries(["isRoundedAvatar": "true"]), templateVersion: "1")
///     }
/// }
/// ```
public protocol RemoteConfigProvider: Sendable {
    /// A short display name, e.g. `"firebase"`; shown as the resolution source of remote flags.
    var name: String { get }

    /// Performs one fetch.
    ///
    /// Honour ``RemoteConfigFetchRequest/timeout`` and task cancellation where you can; ``RemoteConfig`` also
    /// stops waiting after the timeout on its own.
    ///
    /// - Parameter request: The last ETag, custom signals and timeout.
    /// - Returns: What the service answered.
    /// - Throws: ``RemoteConfigProviderError`` describing the failure; an HTTP 429, 500, 503 or 504
    ///   (``RemoteConfigProviderError/httpStatus(_:message:)``) makes ``RemoteConfig`` back off.
    func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse

    /// What identifies this client's device and app for fetch freshness, e.g. app version, build, OS version,
    /// language and app ID.
    ///
    /// ``RemoteConfig`` records it at each successful fetch; when it differs at the next fetch, the minimum
    /// fetch interval and backoff are skipped (as the Firebase SDK does after an app update or a language
    /// change). Read once per fetch. The default is empty: never changes.
    var deviceContext: [String: String] { get }

    /// Tells the provider where the ``RemoteConfig`` using it keeps its files, so it can keep its own beside
    /// them (the Firebase provider keeps its installation there). Called once, from the config's initializer.
    /// The default does nothing.
    ///
    /// - Parameter directory: The config's storage directory, or `nil` for an in-memory config.
    func prepare(storageDirectory directory: URL?)
}

extension RemoteConfigProvider {
    /// No device context: fetch freshness depends on time only.
    public var deviceContext: [String: String] { [:] }

    /// Keeps no files.
    ///
    /// - Parameter directory: Ignored.
    public func prepare(storageDirectory directory: URL?) {}
}

/// The inputs of one provider fetch.
public struct RemoteConfigFetchRequest: Sendable, Equatable {
    /// The ETag of the last successful fetch, for `If-None-Match`; `nil` before the first one.
    public var eTag: String?
    /// The custom signals to send, already validated and converted to strings.
    public var customSignals: [String: String]
    /// How long the provider may take, in seconds.
    public var timeout: TimeInterval
    /// The template version of the last fetched config, if known.
    public var lastTemplateVersion: String?
    /// For a fetch the realtime stream triggered, its attempt number (1, 2, 3) for the same announced version;
    /// `nil` for an ordinary fetch. Firebase sends it as `X-Firebase-RC-Fetch-Type: REALTIME/<n>`.
    public var realtimeAttempt: Int?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - eTag: The last ETag.
    ///   - customSignals: The custom signals.
    ///   - timeout: The timeout in seconds.
    ///   - lastTemplateVersion: The last fetched template version.
    ///   - realtimeAttempt: The realtime attempt number, or `nil` for an ordinary fetch.
    public init(
        eTag: String? = nil, customSignals: [String: String] = [:], timeout: TimeInterval = 60,
        lastTemplateVersion: String? = nil, realtimeAttempt: Int? = nil
    ) {
        self.eTag = eTag
        self.customSignals = customSignals
        self.timeout = timeout
        self.lastTemplateVersion = lastTemplateVersion
        self.realtimeAttempt = realtimeAttempt
    }
}

/// What a provider fetch returned.
public struct RemoteConfigFetchResponse: Sendable, Equatable {
    /// The fetched template's content, mirroring Firebase's response states.
    public enum Content: Sendable, Equatable {
        /// A full template (Firebase `UPDATE`): these entries replace the fetched config.
        case entries([String: String])
        /// Nothing changed since the ETag sent (Firebase `NO_CHANGE`, HTTP 304, or an unspecified state): the
        /// fetched config stays as it is.
        case unchanged
        /// The template has no parameters for this client (Firebase `EMPTY_CONFIG`): the fetched config becomes empty.
        case empty
        /// The project has no template (Firebase `NO_TEMPLATE`): the fetched config becomes empty.
        case noTemplate
    }

    /// The content.
    public var content: Content
    /// The template version, if the service reports one.
    public var templateVersion: String?
    /// The response's ETag, if any; sent back as `If-None-Match` next time.
    public var eTag: String?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - content: The content.
    ///   - templateVersion: The template version.
    ///   - eTag: The ETag.
    public init(content: Content, templateVersion: String? = nil, eTag: String? = nil) {
        self.content = content
        self.templateVersion = templateVersion
        self.eTag = eTag
    }
}

/// Why a provider fetch failed.
///
/// A struct rather than an enum, so that a new kind of failure can be added without breaking code that handles
/// these errors: ask its properties (``status``, ``message``, ``isTransport``, ``triggersBackoff``, …) instead of
/// matching cases. The static members (``httpStatus(_:message:)``, …) make the errors, as the cases of an enum
/// would.
public struct RemoteConfigProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: Sendable, Equatable {
        case httpStatus(Int)
        case serverError(code: Int?, status: String?)
        case timedOut(after: TimeInterval)
        case transport
        case invalidResponse
        case missingCredentials
    }

    private let code: Code
    /// The message: the server's for an HTTP status or a server error (if it sent one), else what went wrong;
    /// `nil` for a timeout.
    public let message: String?

    private init(_ code: Code, message: String?) {
        self.code = code
        self.message = message
    }

    /// The service answered with a non-success HTTP status; `message` is the server's error message, if any.
    public static func httpStatus(_ status: Int, message: String?) -> RemoteConfigProviderError {
        RemoteConfigProviderError(.httpStatus(status), message: message)
    }

    /// The service answered 200 with an error body (Firebase `{"error":{"code","status","message"}}`).
    public static func serverError(code: Int?, status: String?, message: String?) -> RemoteConfigProviderError {
        RemoteConfigProviderError(.serverError(code: code, status: status), message: message)
    }

    /// No complete answer within the timeout (seconds).
    public static func timedOut(after seconds: TimeInterval) -> RemoteConfigProviderError {
        RemoteConfigProviderError(.timedOut(after: seconds), message: nil)
    }

    /// The connection failed: refused, reset, closed early, truncated body, DNS, TLS…
    public static func transport(_ message: String) -> RemoteConfigProviderError {
        RemoteConfigProviderError(.transport, message: message)
    }

    /// The answer arrived but is unusable: malformed JSON, wrong content type, too large, unexpected shape.
    public static func invalidResponse(_ message: String) -> RemoteConfigProviderError {
        RemoteConfigProviderError(.invalidResponse, message: message)
    }

    /// No request was made (or it could not be authenticated) because a credential is missing; the message
    /// names it, e.g. an empty Firebase installation auth token.
    public static func missingCredentials(_ message: String) -> RemoteConfigProviderError {
        RemoteConfigProviderError(.missingCredentials, message: message)
    }

    /// HTTP statuses that make ``RemoteConfig`` back off exponentially: 429, 500, 503 and 504.
    public static let backoffStatuses: Set<Int> = [429, 500, 503, 504]

    /// Whether this failure starts or extends exponential backoff (HTTP 429, 500, 503, 504).
    public var triggersBackoff: Bool {
        status.map(Self.backoffStatuses.contains) ?? false
    }

    /// The HTTP status the service answered, for ``httpStatus(_:message:)``.
    public var status: Int? {
        if case .httpStatus(let status) = code { return status }
        return nil
    }

    /// Whether the service answered 200 with an error body (``serverErrorCode``, ``serverErrorStatus`` and
    /// ``message`` say what it said).
    public var isServerError: Bool {
        if case .serverError = code { return true }
        return false
    }

    /// The `code` of a server error body, if it had one.
    public var serverErrorCode: Int? {
        if case .serverError(let code, _) = code { return code }
        return nil
    }

    /// The `status` of a server error body (e.g. `INVALID_ARGUMENT`), if it had one.
    public var serverErrorStatus: String? {
        if case .serverError(_, let status) = code { return status }
        return nil
    }

    /// Whether no complete answer came within the timeout.
    public var isTimedOut: Bool { timeout != nil }

    /// For a timeout, the timeout in seconds.
    public var timeout: TimeInterval? {
        if case .timedOut(let seconds) = code { return seconds }
        return nil
    }

    /// Whether the connection failed (refused, reset, closed early, truncated body, DNS, TLS…).
    public var isTransport: Bool { code == .transport }

    /// Whether the answer arrived but is unusable.
    public var isInvalidResponse: Bool { code == .invalidResponse }

    /// Whether a credential is missing.
    public var isMissingCredentials: Bool { code == .missingCredentials }

    /// A one-line explanation such as `HTTP 503: backend unavailable`.
    public var description: String {
        switch code {
        case .httpStatus(let status):
            return message.map { "HTTP \(status): \($0)" } ?? "HTTP \(status)"
        case .serverError(let code, let status):
            let parts = [code.map { "code \($0)" }, status, message].compactMap { $0 }
            return "server error" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
        case .timedOut(let seconds):
            return "timed out after \(RemoteConfigValue.decimalText(seconds)) s"
        case .transport:
            return "connection failed: \(message ?? "")"
        case .invalidResponse:
            return "invalid response: \(message ?? "")"
        case .missingCredentials:
            return "missing credentials: \(message ?? "")"
        }
    }
}
