import FlagstaffRemote
import Foundation

/// Fetches Firebase Remote Config templates over the REST API, for ``RemoteConfig``.
///
/// Each fetch is `POST {base}/v1/projects/{projectID}/namespaces/{namespace}:fetch?key={apiKey}` with a
/// strict-JSON body (`app_instance_id`, `app_instance_id_token`, `app_id`, `language_code`,
/// `platform_version`, `time_zone`, `app_version`, `app_build`, `sdk_version`, `custom_signals`) and
/// `if-none-match` set to the last ETag. Response states are handled like the Apple SDK
/// (`NO_CHANGE` and HTTP 304 keep the fetched config; `EMPTY_CONFIG` and `NO_TEMPLATE` empty it).
///
/// ```swift
/// let firebase = FirebaseRemoteConfigProvider(options: FirebaseRemoteConfigOptions(
///     projectID: "moments-4f2a1", apiKey: apiKey, appID: "1:123:ios:abc", languageCode: "zh"))
/// let config = RemoteConfig(provider: firebase, storageDirectory: cacheURL)
/// ```
///
/// HTTP runs on Foundation's `URLSession` (FoundationNetworking on Linux) with caching disabled, one session per
/// provider (fetches reuse its connection when the server keeps it open; it is closed when the provider is
/// released); bodies over ``FirebaseRemoteConfigOptions/maximumResponseBytes`` are cut off as soon as they pass
/// the limit, and each fetch ends at `request.timeout` exactly.
public struct FirebaseRemoteConfigProvider: RemoteConfigProvider {
    /// `"firebase"`.
    public let name: String
    /// The endpoint and device fields.
    public let options: FirebaseRemoteConfigOptions
    /// The provider's HTTP session; shared by its copies.
    let transport: RemoteHTTPTransport

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - options: The endpoint and device fields.
    ///   - name: The display name, `"firebase"` by default.
    public init(options: FirebaseRemoteConfigOptions, name: String = "firebase") {
        self.options = options
        self.name = name
        transport = RemoteHTTPTransport(label: "flagstaff.firebase", maximumResponseBytes: options.maximumResponseBytes)
    }

    /// Performs one fetch.
    ///
    /// - Parameter request: The ETag, custom signals and timeout.
    /// - Returns: The parsed response.
    /// - Throws: ``RemoteConfigProviderError``: `.timedOut` after `request.timeout`, `.transport` for
    ///   refused/reset/truncated connections (with the shared HTTP transport's message, as the Unleash provider), `.httpStatus` for non-200 answers (with the server's message),
    ///   `.serverError` for a 200 error body, `.invalidResponse` for malformed, oversized or non-JSON bodies.
    public func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError)
        -> RemoteConfigFetchResponse
    {
        guard let url = options.fetchURL else {
            throw .invalidResponse(
                "cannot build the fetch URL from base \(options.baseURL) and project \(options.projectID)")
        }
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("Accept", "application/json"),
        ]
        if let eTag = request.eTag, !eTag.isEmpty { headers.append(("if-none-match", eTag)) }
        if !options.appInstanceIDToken.isEmpty {
            headers.append(("x-goog-firebase-installations-auth", options.appInstanceIDToken))
        }
        let body = try requestBody(customSignals: request.customSignals)
        let timeout =
            request.timeout.isFinite
            ? Duration.milliseconds(Int64(min(max(request.timeout, 0.001), 1e9) * 1000)) : .seconds(60)
        let response: RemoteHTTPResponse
        switch await transport.send(
            RemoteHTTPRequest(method: "POST", url: url, headers: headers, body: body), timeout: timeout)
        {
        case .success(let answer): response = answer
        case .failure(let failure): throw RemoteConfigProviderError(failure, timeout: request.timeout)
        }
        return try FirebaseFetchResponseParser.parse(
            status: response.status, headers: response.headers, body: response.body,
            maximumBytes: options.maximumResponseBytes
        )
    }

    /// The strict-JSON request body (keys sorted, so it is stable for tests and caches).
    ///
    /// - Parameter customSignals: The custom signals; omitted from the body when empty.
    /// - Returns: The UTF-8 JSON body.
    /// - Throws: ``RemoteConfigProviderError/invalidResponse(_:)`` if encoding fails (it cannot for strings).
    func requestBody(customSignals: [String: String]) throws(RemoteConfigProviderError) -> Data {
        var body: [String: Any] = [
            "app_instance_id": options.appInstanceID,
            "app_instance_id_token": options.appInstanceIDToken,
            "app_id": options.appID,
            "language_code": options.languageCode,
            "platform_version": options.platformVersion,
            "time_zone": options.timeZone,
            "app_version": options.appVersion,
            "app_build": options.appBuild,
            "sdk_version": options.sdkVersion,
        ]
        if !customSignals.isEmpty { body["custom_signals"] = customSignals }
        do {
            return try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        } catch {
            throw .invalidResponse("cannot encode the request body: \((error as NSError).localizedDescription)")
        }
    }
}
