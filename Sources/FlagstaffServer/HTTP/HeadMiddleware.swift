import HTTPTypes
import Hummingbird

/// Answers `HEAD` as HTTP requires wherever `GET` is served: the `GET` answer's status and headers (`ETag`,
/// `Content-Length` or chunked framing, `Content-Encoding`, …) without its body. Also strips the body of a
/// `HEAD` request's error replies (401, 404, 413), which must not have one either.
///
/// The routes register their `GET` handlers for `HEAD` too (see ``FlagRoutes``); a kept body is not copied
/// and a streamed one is never rendered.
struct HeadMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let response = try await next(request, context)
        guard request.method == .head else { return response }
        // The same length as the GET body (the header is kept); none for a chunked one, as for GET.
        return Response(
            status: response.status, headers: response.headers,
            body: ResponseBody(contentLength: response.body.contentLength) { writer in try await writer.finish(nil) })
    }
}
