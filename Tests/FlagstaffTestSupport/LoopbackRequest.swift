import Foundation

/// One HTTP request as received by a ``LoopbackHTTPServer``.
///
/// The server parses the request line, headers and body (`Content-Length` or chunked) before calling the
/// handler, and records every request in ``LoopbackHTTPServer/requests`` for later assertions.
package struct LoopbackRequest: Sendable, Equatable {
    /// The request method as sent, e.g. `"POST"`.
    package var method: String
    /// The request target as sent, path and query, e.g. `"/v1/x:fetch?key=abc"`.
    package var target: String
    /// The percent-decoded path, without the query, e.g. `"/v1/x:fetch"`.
    package var path: String
    /// The raw query string after `?`, or `""` when there is none.
    package var rawQuery: String
    /// The query items, percent-decoded, in order; duplicate names are kept.
    package var queryItems: [(name: String, value: String?)] {
        URLComponents(string: "http://h/?" + rawQuery)?.queryItems?.map { ($0.name, $0.value) } ?? []
    }
    /// The query items as a dictionary (the last value wins; a name without `=` maps to `""`).
    package var query: [String: String] {
        var result: [String: String] = [:]
        for item in queryItems { result[item.name] = item.value ?? "" }
        return result
    }
    /// The header fields; lookups are case-insensitive.
    package var headers: LoopbackHeaders
    /// The body bytes (de-chunked), empty when there is none.
    package var body: Data
    /// Which of the server's connections it arrived on, numbered from 1 (`0` for a request a test built): two
    /// requests with the same number came over one connection.
    package var connection = 0

    /// Creates a request value, as the server does when parsing; tests may build one to call a handler directly.
    ///
    /// - Parameters:
    ///   - method: The method, e.g. `"GET"`.
    ///   - target: The path plus optional `?query`.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    package init(method: String, target: String, headers: LoopbackHeaders = LoopbackHeaders(), body: Data = Data()) {
        self.method = method
        self.target = target
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = parts.first.map(String.init) ?? ""
        self.path = rawPath.removingPercentEncoding ?? rawPath
        self.rawQuery = parts.count > 1 ? String(parts[1]) : ""
        self.headers = headers
        self.body = body
    }

    /// The body decoded as UTF-8, or `nil` if it is not valid UTF-8.
    package var bodyText: String? {
        String(data: body, encoding: .utf8)
    }

    /// The body parsed as a JSON object, or `nil` if it is not one.
    package var jsonBody: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    }

    /// Compares method, target, headers and body (not the connection).
    package static func == (lhs: LoopbackRequest, rhs: LoopbackRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.headers == rhs.headers && lhs.body == rhs.body
    }
}
