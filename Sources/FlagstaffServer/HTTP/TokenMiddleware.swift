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
