import Foundation

/// How a ``LoopbackHTTPServer`` misbehaves when sending a response, for fault-injection tests.
package enum LoopbackFault: Sendable, Equatable {
    /// Read the request, then close the connection without writing a single byte.
    case closeWithoutResponse
    /// Read the request, then reset the connection (TCP RST via `SO_LINGER` 0) without writing anything.
    case resetConnection
    /// Send the status line and headers with the full body's `Content-Length`, then only the first
    /// `sentBytes` bytes of the body, then close: the client sees a truncated body.
    case truncatedBody(sentBytes: Int)
}

/// The response a ``LoopbackHTTPServer`` handler returns: status, headers, body, and optional faults.
///
/// The server adds `Connection: close` (one request per connection) unless it keeps connections alive, and, unless the handler set one
/// or ``chunked`` is on, a `Content-Length` for ``body``. It adds no `Content-Type`: set one yourself, or
/// use ``json(_:status:headers:)`` / ``text(_:status:headers:)``. To test a wrong content type, set any
/// other type in ``headers``; to test an oversized body, return a large body (see ``oversized(bytes:contentType:)``).
package struct LoopbackResponse: Sendable, Equatable {
    /// The status code, e.g. `200`.
    package var status: Int
    /// Header fields to send, in order. Case-insensitive lookups.
    package var headers: LoopbackHeaders
    /// The body bytes.
    package var body: Data
    /// How long the server waits before writing anything (the connection stays open), to trigger client
    /// timeouts. ``LoopbackHTTPServer/stop()`` interrupts the wait.
    ///
    /// Note: on Linux, swift-corelibs-foundation truncates `URLSession` timeouts to whole seconds (a 0.5 s
    /// timeout fires at once), so a plain `URLSession` client needs timeouts of at least 1 s.
    package var delay: Duration
    /// Send the body with `Transfer-Encoding: chunked` instead of `Content-Length`.
    package var chunked: Bool
    /// A transport-level fault to inject, or `nil` for a well-formed response.
    package var fault: LoopbackFault?
    /// Write the body slowly, a piece at a time (see ``LoopbackPace``); `nil` writes it at once.
    package var pace: LoopbackPace?
    /// Keep the answer open and write what the test sends on this stream (``eventStream(_:status:headers:)``);
    /// ``body`` is not sent then.
    package var eventStream: LoopbackEventStream?

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields to send.
    ///   - body: The body bytes.
    ///   - delay: Time to wait before responding.
    ///   - chunked: Whether to use chunked transfer encoding.
    ///   - fault: A fault to inject.
    ///   - pace: How fast to write the body; `nil` for all at once.
    package init(
        status: Int = 200,
        headers: LoopbackHeaders = LoopbackHeaders(),
        body: Data = Data(),
        delay: Duration = .zero,
        chunked: Bool = false,
        fault: LoopbackFault? = nil,
        pace: LoopbackPace? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.chunked = chunked
        self.fault = fault
        self.pace = pace
    }

    /// A response with a UTF-8 JSON text body and `Content-Type: application/json; charset=utf-8`.
    ///
    /// - Parameters:
    ///   - json: The JSON text, sent as-is (it need not be valid, for malformed-JSON tests).
    ///   - status: The status code.
    ///   - headers: Extra header fields.
    /// - Returns: The response.
    package static func json(_ json: String, status: Int = 200, headers: LoopbackHeaders = LoopbackHeaders()) -> Self {
        var all = headers
        if !all.contains("Content-Type") { all["Content-Type"] = "application/json; charset=utf-8" }
        return LoopbackResponse(status: status, headers: all, body: Data(json.utf8))
    }

    /// A response whose body is a JSON-serialised object (keys sorted) with a JSON content type.
    ///
    /// - Parameters:
    ///   - object: A `JSONSerialization`-compatible value (dictionary or array).
    ///   - status: The status code.
    ///   - headers: Extra header fields.
    /// - Returns: The response; a 500 with a plain-text message if `object` cannot be serialised.
    package static func jsonObject(_ object: Any, status: Int = 200, headers: LoopbackHeaders = LoopbackHeaders())
        -> Self
    {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        else {
            return .text("LoopbackResponse.jsonObject: value is not serialisable as JSON", status: 500)
        }
        return .json(String(decoding: data, as: UTF8.self), status: status, headers: headers)
    }

    /// A response with a UTF-8 plain-text body and `Content-Type: text/plain; charset=utf-8`.
    ///
    /// - Parameters:
    ///   - text: The body text.
    ///   - status: The status code.
    ///   - headers: Extra header fields.
    /// - Returns: The response.
    package static func text(_ text: String, status: Int = 200, headers: LoopbackHeaders = LoopbackHeaders()) -> Self {
        var all = headers
        if !all.contains("Content-Type") { all["Content-Type"] = "text/plain; charset=utf-8" }
        return LoopbackResponse(status: status, headers: all, body: Data(text.utf8))
    }

    /// A bodiless response with only a status code (e.g. `304`, `429`, `503`).
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields, e.g. `Retry-After`.
    /// - Returns: The response.
    package static func status(_ status: Int, headers: LoopbackHeaders = LoopbackHeaders()) -> Self {
        LoopbackResponse(status: status, headers: headers)
    }

    /// A 200 response with a large body of `bytes` bytes (a JSON string literal padded with spaces).
    ///
    /// - Parameters:
    ///   - bytes: The body size in bytes (at least 2).
    ///   - contentType: The content type to declare.
    /// - Returns: The response.
    package static func oversized(bytes: Int, contentType: String = "application/json") -> Self {
        var body = Data(repeating: UInt8(ascii: " "), count: max(bytes, 2))
        body[0] = UInt8(ascii: "\"")
        body[body.count - 1] = UInt8(ascii: "\"")
        return LoopbackResponse(status: 200, headers: ["Content-Type": contentType], body: body)
    }

    /// A 200 response that streams a large body slowly, chunked (no `Content-Length`), like a broken or hostile
    /// server: a client that buffers everything before checking its limit would wait for the whole stream.
    ///
    /// - Parameters:
    ///   - bytes: The body size in bytes.
    ///   - pace: How fast it is written.
    /// - Returns: The response.
    package static func slowStream(bytes: Int, pace: LoopbackPace) -> Self {
        var response = oversized(bytes: bytes)
        response.chunked = true
        response.pace = pace
        return response
    }

    /// The standard reason phrase for ``status`` (`"OK"`, `"Not Modified"`, …), or `"Status"` if unknown.
    package var reasonPhrase: String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
