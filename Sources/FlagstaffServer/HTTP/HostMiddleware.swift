import HTTPTypes
import Hummingbird

/// Refuses (400) a request without a `Host` header, as RFC 9112 (section 3.2) requires for HTTP/1.1. HTTP/1.0
/// requests are refused too: the version is gone once a request reaches the router, and every HTTP/1.0 client in
/// use sends `Host` (the OFREP bulk answer names the event stream after it).
struct HostMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.head.authority == nil else { return try await next(request, context) }
        return ServerReply.error(400, "the request needs a Host header (RFC 9112, section 3.2)").response
    }
}
