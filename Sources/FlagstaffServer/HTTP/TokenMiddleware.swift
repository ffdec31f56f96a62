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
        let given = request.headers[.authorization]
        guard !TokenCheck.accepts(given, tokens: tokens) else { return try await next(request, context) }
        let message =
            (given ?? "").isEmpty
            ? "this server needs an Authorization header with one of its tokens"
            : "the Authorization header is not one of this server's tokens"
        return ServerReply.error(401, message).response
    }
}

/// The token check of every request (``TokenMiddleware``) and of the conditional-GET fast path
/// (``NotModifiedHandler``).
enum TokenCheck {
    /// Whether an `Authorization` header lets a request through: any header when there are no tokens, else one of
    /// the tokens, alone or after `Bearer `.
    static func accepts(_ given: String?, tokens: Set<String>) -> Bool {
        guard !tokens.isEmpty else { return true }
        let given = given ?? ""
        if tokens.contains(given) { return true }
        return given.hasPrefix("Bearer ") && tokens.contains(String(given.dropFirst(7)))
    }
}
