import HTTPTypes
import Hummingbird

/// Refuses (401) a request whose `Authorization` header is not one of the tokens (`Bearer <token>` counts as
/// `<token>`). CORS preflight requests pass: browsers send them without credentials.
struct TokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: Set<String>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard !tokens.isEmpty, request.method != .options else { return try await next(request, context) }
        let given = request.headers[.authorization] ?? ""
        let token = given.hasPrefix("Bearer ") ? String(given.dropFirst(7)) : given
        guard tokens.contains(token) || tokens.contains(given) else {
            let message =
                given.isEmpty
                ? "this server needs an Authorization header with one of its tokens"
                : "the Authorization header is not one of this server's tokens"
            return ServerReply.error(401, message).response
        }
        return try await next(request, context)
    }
}

/// Turns the framework's errors (unknown path 404, body too large 413, …) into a JSON body that says what
/// went wrong, like the server's own errors.
struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPResponseError {
            let message: String
            switch error.status {
            case .notFound: message = "no endpoint at \(request.method) \(request.uri.path)"
            case .contentTooLarge: message = "the request body is larger than this server accepts"
            default: message = (error as? HTTPError)?.body ?? error.status.reasonPhrase
            }
            return ServerReply.error(error.status.code, message).response
        }
    }
}

extension ServerReply {
    /// The reply as a Hummingbird response: JSON content type when there is a body, the ETag, and
    /// `Cache-Control: no-cache` so caches revalidate.
    var response: Response {
        var headers = HTTPFields()
        if !body.isEmpty { headers[.contentType] = "application/json; charset=utf-8" }
        if let etag { headers[.eTag] = etag }
        headers[.cacheControl] = "no-cache"
        // Hummingbird's CORS middleware names exposed headers only in preflight answers; browsers read them here.
        headers[.accessControlExposeHeaders] = "ETag"
        return Response(
            status: HTTPResponse.Status(code: status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
