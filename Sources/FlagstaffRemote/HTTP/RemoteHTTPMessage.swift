import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP request sent by ``RemoteHTTPTransport``.
package struct RemoteHTTPRequest: Sendable {
    package var method: String
    package var url: URL
    /// Header fields in the order they are set; names are compared case-insensitively by the server.
    package var headers: [(name: String, value: String)]
    package var body: Data?

    package init(method: String, url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What the server answered: the status, the header fields and the whole body (never more than the limit).
package struct RemoteHTTPResponse: Sendable {
    package var status: Int
    /// Header fields with lower-cased names.
    package var headers: [String: String]
    package var body: Data

    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header field, looked up case-insensitively.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why ``RemoteHTTPTransport`` got no usable answer. Each module turns it into its own public error type.
package enum RemoteHTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No complete answer before the deadline.
    case timedOut(after: Duration, url: URL)
    /// The calling task was cancelled (or the transport invalidated) before the answer was complete.
    case cancelled
    /// Nothing listens on the host and port.
    case refused(URL)
    /// The connection closed before a complete response (no status line or headers).
    case closedEarly(URL)
    /// The connection closed in the middle of the body.
    case truncated(URL)
    /// The bytes were not HTTP, or the connection closed before they were.
    case badResponse(URL)
    /// The answer is not an HTTP response.
    case notHTTP(URL)
    /// The body passed `limit`; `declared` is its `Content-Length` when that already said so.
    case bodyTooLarge(url: URL, limit: Int, declared: Int64?)
    /// An event stream's body came faster than its reader took it: `limit` pieces were waiting unread. The stream
    /// is closed (FoundationNetworking cannot slow a sender down), so that memory stays bounded.
    case streamBacklog(url: URL, limit: Int)
    /// Any other failure: Foundation's code and message.
    case other(url: URL, code: Int, message: String)

    /// Whether the failure is about the answer's content (not HTTP, too large) rather than the connection.
    package var isInvalidResponse: Bool {
        switch self {
        case .notHTTP, .bodyTooLarge: true
        default: false
        }
    }

    /// `host:port` of a URL, for messages.
    package static func hostAndPort(_ url: URL) -> String {
        "\(url.host ?? "host")\(url.port.map { ":\($0)" } ?? "")"
    }

    /// A URL for messages, with the value of a `key` query item (an API key, as in Firebase's `?key=`) replaced
    /// by `***`: messages are logged, persisted and shown in the console.
    package static func displayURL(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let items = components.queryItems, items.contains(where: { $0.name.lowercased() == "key" })
        else { return url.absoluteString }
        components.queryItems = items.map {
            $0.name.lowercased() == "key" ? URLQueryItem(name: $0.name, value: "***") : $0
        }
        return components.string ?? url.absoluteString
    }

    /// A message naming the host (or the URL for content problems, see ``displayURL(_:)``), e.g.
    /// `connection refused by 127.0.0.1:8080`.
    package var description: String {
        switch self {
        case .timedOut(let after, let url):
            "no answer from \(Self.hostAndPort(url)) within \(after)"
        case .cancelled:
            "cancelled"
        case .refused(let url):
            "connection refused by \(Self.hostAndPort(url))"
        case .closedEarly(let url):
            "\(Self.hostAndPort(url)) closed the connection before a complete response"
        case .truncated(let url):
            "\(Self.hostAndPort(url)) closed the connection before the whole body arrived (truncated body)"
        case .badResponse(let url):
            "bad response from \(Self.hostAndPort(url)) (connection closed early or malformed HTTP)"
        case .notHTTP(let url):
            "not an HTTP response from \(Self.displayURL(url))"
        case .bodyTooLarge(let url, let limit, let declared?):
            "the body from \(Self.displayURL(url)) is \(declared) bytes, more than the limit of \(limit) bytes"
        case .bodyTooLarge(let url, let limit, nil):
            "the body from \(Self.displayURL(url)) exceeds the limit of \(limit) bytes"
        case .streamBacklog(let url, let limit):
            "the event stream from \(Self.hostAndPort(url)) sent faster than it was read (\(limit) pieces were waiting); closed"
        case .other(let url, let code, let message):
            "\(Self.hostAndPort(url)): URL error \(code): \(message)"
        }
    }

    /// Maps a Foundation failure of a request to `url`.
    static func from(_ error: any Error, url: URL, timeout: Duration) -> RemoteHTTPError {
        guard let urlError = error as? URLError else {
            if error is CancellationError { return .cancelled }
            return .other(url: url, code: (error as NSError).code, message: (error as NSError).localizedDescription)
        }
        switch urlError.code {
        case .timedOut: return .timedOut(after: timeout, url: url)
        case .cannotConnectToHost: return .refused(url)
        case .networkConnectionLost: return .closedEarly(url)
        case .badServerResponse, .cannotParseResponse: return .badResponse(url)
        case .cancelled: return .cancelled
        default:
            // libcurl's CURLE_PARTIAL_FILE ("transfer closed with N bytes remaining to read").
            if urlError.localizedDescription.contains("transfer closed") { return .truncated(url) }
            return .other(url: url, code: urlError.code.rawValue, message: urlError.localizedDescription)
        }
    }
}
