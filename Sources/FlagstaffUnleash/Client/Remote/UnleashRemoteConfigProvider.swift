import FlagstaffRemote
import Foundation

/// Serves Unleash frontend-API toggles to a `RemoteConfig`, so `RemoteFeature`s (and manifests with
/// `"remote": {"provider": "unleash", …}`) can read Unleash toggles through the same machinery as Firebase.
///
/// Each fetch is one frontend request, exactly as ``UnleashClient`` sends it (query order, headers, ETag). Every
/// toggle becomes one entry, its name mapped to `"true"` or `"false"`; a `RemoteFeature` whose remote key is a
/// toggle's name follows that toggle. A toggle the frontend API leaves out (it omits disabled ones) has no entry,
/// so the flag falls back to its default. HTTP 304 is `.unchanged`; other statuses become
/// `RemoteConfigProviderError.httpStatus`, so `RemoteConfig` backs off on 429 and 5xx.
///
/// `RemoteConfig` owns intervals, backoff, activation and persistence here; use ``UnleashClient`` when you want
/// variants, impressions, metrics and Unleash's own polling rules.
public struct UnleashRemoteConfigProvider: RemoteConfigProvider {
    /// `"unleash"`.
    public let name: String
    /// The frontend API endpoint.
    public let url: URL
    /// The application name.
    public let appName: String
    /// The environment.
    public let environment: String
    /// The context sent with each fetch; it always has a `sessionId` (the given one, else one made for this
    /// provider).
    public let context: UnleashContext
    /// The connection id sent as `unleash-connection-id`.
    public let connectionID: String
    let clientKey: String
    let maximumResponseBytes: Int
    /// Where requests run: off the cooperative pool (see ``UnleashExecutor``).
    let executor = UnleashExecutor(label: "flagstaff.unleash.remote-config")
    /// The provider's HTTP session, shared by its copies; closed when the provider is released.
    let transport: RemoteHTTPTransport

    /// Creates a provider.
    /// - Parameters:
    ///   - url: The frontend API endpoint.
    ///   - clientKey: The frontend (client) key.
    ///   - appName: The application name.
    ///   - environment: The environment (default `default`).
    ///   - context: The context sent with each fetch; without a `sessionId` the provider makes one for its life.
    ///   - maximumResponseBytes: The largest body accepted (default 16 MiB).
    ///   - name: The display name (default `unleash`).
    public init(
        url: URL, clientKey: String, appName: String, environment: String = "default",
        context: UnleashContext = UnleashContext(), maximumResponseBytes: Int = 16 << 20, name: String = "unleash"
    ) {
        self.url = url
        self.clientKey = clientKey
        self.appName = appName
        self.environment = environment
        var context = context
        // Without a session id the server makes up one per request, and session-sticky rollouts would flip on
        // every fetch: one per provider, as the frontend client makes.
        if context.sessionId?.isEmpty ?? true { context.sessionId = UnleashClient.makeSessionID() }
        self.context = context
        self.maximumResponseBytes = maximumResponseBytes
        self.name = name
        transport = RemoteHTTPTransport(
            label: "flagstaff.unleash.remote-config", maximumResponseBytes: maximumResponseBytes)
        self.connectionID = UUID().uuidString.lowercased()
    }

    /// Fetches the toggles once.
    /// - Parameter request: The ETag and timeout (custom signals are added to the context's properties).
    /// - Returns: The toggles as entries, or `.unchanged` for HTTP 304.
    /// - Throws: `RemoteConfigProviderError`: `.httpStatus` for statuses other than 200 and 304, `.timedOut`,
    ///   `.transport`, `.invalidResponse` naming the JSON path of a bad body.
    public func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError)
        -> RemoteConfigFetchResponse
    {
        var context = self.context
        context.properties.merge(request.customSignals) { _, signal in signal }
        let query = UnleashFrontendQuery.string(context: context, appName: appName, environment: environment)
        var headers: [(name: String, value: String)] = [
            ("Authorization", clientKey), ("unleash-appname", appName), ("unleash-connection-id", connectionID),
            ("unleash-sdk", UnleashRequestHeaders.sdkIdentifier), ("Accept", "application/json"),
        ]
        if let eTag = request.eTag, !eTag.isEmpty { headers.append(("If-None-Match", eTag)) }
        let seconds = max(0.001, request.timeout)
        let timeout = Duration.milliseconds(Int64(min(seconds, 1e9) * 1000))
        let transport = self.transport
        let target = RemoteHTTPRequest(
            method: "GET", url: UnleashFrontendQuery.url(url, query: query), headers: headers)
        let response: RemoteHTTPResponse
        switch await executor.run({ await transport.send(target, timeout: timeout) }).mapError(UnleashClientError.init)
        {
        case .success(let answer):
            response = answer
        case .failure(let error) where error.isTimedOut:
            throw .timedOut(after: request.timeout)
        case .failure(let error) where error.isTransport:
            throw .transport(error.message)
        case .failure(let error):
            throw .invalidResponse(error.description)
        }
        switch response.status {
        case 200:
            let toggles: [UnleashToggle]
            do {
                toggles = try UnleashTogglesDocument.decode(response.body, source: "body from \(url.absoluteString)")
            } catch {
                // Its message, not its description: that says "invalid response" already.
                throw .invalidResponse(error.message)
            }
            var entries: [String: String] = [:]
            for toggle in toggles { entries[toggle.name] = toggle.enabled ? "true" : "false" }
            return RemoteConfigFetchResponse(content: .entries(entries), eTag: response.header("etag"))
        case 304:
            return RemoteConfigFetchResponse(content: .unchanged, eTag: request.eTag)
        default:
            throw .httpStatus(
                response.status,
                message: String(data: response.body.prefix(200), encoding: .utf8).flatMap { $0.isEmpty ? nil : $0 })
        }
    }
}
