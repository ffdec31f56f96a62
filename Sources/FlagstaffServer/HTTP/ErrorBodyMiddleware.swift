import HTTPTypes
import Hummingbird

/// Turns the framework's errors (unknown path 404, body too large 413, …) into a JSON body that says what
/// went wrong, like the server's own errors (and a 413 closes the connection, as every 413 does).
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
