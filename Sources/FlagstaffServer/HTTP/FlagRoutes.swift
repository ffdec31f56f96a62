import FlagstaffServerBodies
import Foundation
import HTTPTypes
import Hummingbird

/// The endpoints: small handlers that read the request, take the live snapshot and hand both to the pure
/// protocol code (``UnleashBodies``, ``OFREPBodies``).
struct FlagRoutes: Sendable {
    let live: LiveSnapshot
    let clients: ClientTracker
    let bodyLimit: Int
    /// Whether the OFREP bulk answer names the event stream (not when `--max-streams 0` turns streams off).
    let offersEventStream: Bool

    static let appNameHeader = HTTPField.Name("unleash-appname")!
    static let sdkHeader = HTTPField.Name("unleash-sdk")!

    /// Adds the endpoints; every `GET` is also registered for `HEAD` (``HeadMiddleware`` drops the body).
    func add(to router: Router<FlagRequestContext>) {
        for prefix in ["/api/frontend", "/api/proxy"] {
            for method in [HTTPRequest.Method.get, .head] {
                router.on(RouterPath(prefix), method: method) { request, context in frontend(request, context) }
            }
            router.post(RouterPath(prefix)) { request, context in try await frontendWithContext(request, context) }
            router.post(RouterPath(prefix + "/client/register")) { request, _ in
                try await clientCall(request, call: .register)
            }
            router.post(RouterPath(prefix + "/client/metrics")) { request, _ in
                try await clientCall(request, call: .metrics)
            }
        }
        for method in [HTTPRequest.Method.get, .head] {
            router.on("/api/client/features", method: method) { request, context in clientFeatures(request, context) }
        }
        router.post("/api/client/register") { request, _ in try await clientCall(request, call: .register) }
        router.post("/api/client/metrics") { request, _ in try await clientCall(request, call: .metrics) }
        router.post("/ofrep/v1/evaluate/flags") { request, context in try await ofrepBulk(request, context) }
        router.post("/ofrep/v1/evaluate/flags/:key") { request, context in
            try await ofrepSingle(request, context, key: context.parameters.get("key") ?? "")
        }
    }

    /// `POST /api/frontend`: the context in the body (checked, then the same answer as a `GET`).
    private func frontendWithContext(_ request: Request, _ context: FlagRequestContext) async throws -> Response {
        let body = try await collect(request)
        do throws(ServerReplyError) {
            let parsed = try FrontendContextRequest(body: body)
            return frontend(request, context, appName: parsed.appName)
        } catch {
            note(request, appName: nil, call: .request)
            return error.reply.response
        }
    }

    /// `GET` (context in the query: the JavaScript SDK names its app there) or, from `POST`, with the body's
    /// `appName`.
    private func frontend(_ request: Request, _ context: FlagRequestContext, appName: String? = nil) -> Response {
        let queried = request.uri.queryParameters.get("appName").flatMap { $0.isEmpty ? nil : $0 }
        let snapshot = live.current()
        note(request, appName: appName ?? queried, call: .request, fetched: (context, snapshot))
        return snapshot.reply(
            .frontend, ifNoneMatch: request.headers[.ifNoneMatch], acceptsGzip: acceptsGzip(request),
            chunks: UnleashBodies.frontendChunks
        ).response
    }

    private func clientFeatures(_ request: Request, _ context: FlagRequestContext) -> Response {
        let snapshot = live.current()
        note(request, appName: nil, call: .request, fetched: (context, snapshot))
        return snapshot.reply(
            .clientFeatures, ifNoneMatch: request.headers[.ifNoneMatch], acceptsGzip: acceptsGzip(request),
            chunks: UnleashBodies.clientFeatureChunks
        ).response
    }

    private func clientCall(_ request: Request, call: ClientTracker.Call) async throws -> Response {
        let body = try await collect(request)
        do throws(ServerReplyError) {
            let parsed = try UnleashClientCall(body: body)
            note(request, appName: parsed.appName, sdk: parsed.sdkVersion, call: call)
            // Only flags this server serves are counted: the names come from the client.
            if !parsed.counts.isEmpty {
                let snapshot = live.current()
                clients.add(parsed.counts.filter { snapshot.flag(forKey: $0.key) != nil })
            }
            return ServerReply(status: 202).response
        } catch {
            note(request, appName: nil, call: call)
            return error.reply.response
        }
    }

    private func ofrepSingle(_ request: Request, _ context: FlagRequestContext, key: String) async throws -> Response {
        let body = try await collect(request)
        let snapshot = live.current()
        note(request, appName: nil, call: .request, fetched: (context, snapshot))
        let key = key.removingPercentEncoding ?? key
        let type = request.uri.queryParameters.get("type")
        return OFREPBodies.evaluate(snapshot, key: key, body: body, requestedType: type).response
    }

    private func ofrepBulk(_ request: Request, _ context: FlagRequestContext) async throws -> Response {
        let body = try await collect(request)
        let snapshot = live.current()
        note(request, appName: nil, call: .request, fetched: (context, snapshot))
        // `flagConfigEtag`/`flagConfigLastModified` (ADR-0008) come with a fetch an event caused: the answer is the
        // values now in any case (the store was just looked at), so they need no more than being accepted.
        return OFREPBodies.evaluateAll(
            snapshot, body: body, ifNoneMatch: request.headers[.ifNoneMatch], acceptsGzip: acceptsGzip(request),
            eventStream: offersEventStream ? OFREPBodies.EventStream(host: request.head.authority) : nil
        ).response
    }

    private func acceptsGzip(_ request: Request) -> Bool {
        Gzip.isAccepted(by: request.headers[.acceptEncoding])
    }

    private func collect(_ request: Request) async throws -> [UInt8] {
        var request = request
        let buffer = try await request.collectBody(upTo: bodyLimit)
        return Array(buffer.readableBytesView)
    }

    /// Records the call under the client's name (see ``identify(_:appName:sdk:)``); for a fetch, also where it
    /// came from and which values it was answered with (the console's list of apps shows both).
    private func note(
        _ request: Request, appName: String?, sdk: String? = nil, call: ClientTracker.Call,
        fetched: (context: FlagRequestContext, snapshot: ServedSnapshot)? = nil
    ) {
        let (name, client) = Self.identify(request, appName: appName, sdk: sdk)
        clients.record(
            name: name, sdk: client, call: call, address: fetched?.context.channel.remoteAddress,
            servedETag: fetched?.snapshot.etag)
    }

    /// A client's name and SDK: `appName` from the body or the frontend query, else the `UNLEASH-APPNAME`
    /// header, else the user agent; the SDK from the body, else the `unleash-sdk` header, else the user agent
    /// (when it is not already the name). Both cut and cleaned (``ClientName``): they are kept, listed and logged.
    static func identify(_ request: Request, appName: String? = nil, sdk: String? = nil) -> (name: String, sdk: String?)
    {
        identify(request.headers, appName: appName, sdk: sdk)
    }

    /// ``identify(_:appName:sdk:)`` from the request's headers.
    static func identify(_ headers: HTTPFields, appName: String? = nil, sdk: String? = nil) -> (
        name: String, sdk: String?
    ) {
        let agent = headers[.userAgent]
        let name =
            appName ?? headers[Self.appNameHeader].flatMap { $0.isEmpty ? nil : $0 } ?? agent
            ?? "unnamed client"
        let client = sdk ?? headers[Self.sdkHeader] ?? (name == agent ? nil : agent)
        return (ClientName.bounded(name), client.map(ClientName.bounded))
    }
}
