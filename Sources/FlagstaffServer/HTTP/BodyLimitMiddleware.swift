import HTTPTypes
import Hummingbird

/// Refuses (413) a request whose `Content-Length` is above the body limit from the header alone, before any
/// of the body arrives: a client announcing gigabytes gets its answer at once instead of the server waiting
/// for them. Like every 413 the reply closes the connection (``CloseAfterResponseHandler``), so the rest of the
/// body is not read either. A chunked body over the limit gets its 413 when the limit is crossed.
package struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The largest body accepted, in bytes.
    package let limit: Int
    /// Paths that take larger bodies (an app's announced manifest), with their limit.
    package var largerLimits: [String: Int] = [:]

    package func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let limit = largerLimits[request.uri.path] ?? self.limit
        guard let length = request.headers[.contentLength], Self.exceeds(length, limit: limit) else {
            return try await next(request, context)
        }
        return ServerReply.error(
            413,
            "the request body (Content-Length: \(length) bytes) is larger than this server accepts (\(limit) bytes)"
        ).response
    }

    /// Whether a `Content-Length` value (digits, as the HTTP parser has already checked) is above `limit`; a
    /// number too large for an `Int` is.
    package static func exceeds(_ length: String, limit: Int) -> Bool {
        guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return false
        }
        return Int(length).map { $0 > limit } ?? true
    }
}
