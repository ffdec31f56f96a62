import HTTPTypes
import Hummingbird

/// Refuses (401) a request whose `Authorization` header is not one of the tokens (`Bearer <token>`, the scheme
/// in any case, counts as `<token>`). CORS preflight requests pass: browsers send them without credentials.
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
    /// the tokens, alone or after the `Bearer` scheme (its name in any case, RFC 7235, then one or more spaces).
    static func accepts(_ given: String?, tokens: Set<String>) -> Bool {
        guard !tokens.isEmpty else { return true }
        let given = given ?? ""
        if tokens.contains(given) { return true }
        return bearerCredentials(given).map(tokens.contains) ?? false
    }

    /// The credentials after a `Bearer` scheme, or `nil` when `header` has another scheme or none.
    static func bearerCredentials(_ header: String) -> String? {
        let utf8 = header.utf8
        let scheme = "bearer".utf8
        guard utf8.count > scheme.count,
            zip(utf8.prefix(scheme.count), scheme).allSatisfy({ $0 | 0x20 == $1 }),
            utf8.dropFirst(scheme.count).first == UInt8(ascii: " ")
        else { return nil }
        let credentials = utf8.dropFirst(scheme.count).drop { $0 == UInt8(ascii: " ") }
        return String(Substring(credentials))
    }
}
