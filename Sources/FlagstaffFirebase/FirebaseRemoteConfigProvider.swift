import FlagstaffRemote
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches Firebase Remote Config templates over the REST API, for ``RemoteConfig``.
///
/// Each fetch is `POST {base}/v1/projects/{projectID}/namespaces/{namespace}:fetch?key={apiKey}` with a
/// strict-JSON body (`app_instance_id`, `app_instance_id_token`, `app_id`, `language_code`,
/// `platform_version`, `time_zone`, `app_version`, `app_build`, `sdk_version`, `custom_signals`) and
/// `if-none-match` set to the last ETag. Response states are handled like the Apple SDK (see
/// ``FirebaseFetchResponseParser``).
///
/// ```swift
/// let firebase = FirebaseRemoteConfigProvider(options: FirebaseRemoteConfigOptions(
///     projectID: "moments-4f2a1", apiKey: apiKey, appID: "1:123:ios:abc", languageCode: "zh"))
/// let config = RemoteConfig(provider: firebase, storageDirectory: cacheURL)
/// ```
///
/// HTTP runs on Foundation's `URLSession` (FoundationNetworking on Linux) with caching disabled; bodies over
/// ``FirebaseRemoteConfigOptions/maximumResponseBytes`` are cut off as soon as they pass the limit.
public struct FirebaseRemoteConfigProvider: RemoteConfigProvider {
    /// `"firebase"`.
    public let name: String
    /// The endpoint and device fields.
    public let options: FirebaseRemoteConfigOptions

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - options: The endpoint and device fields.
    ///   - name: The display name, `"firebase"` by default.
    public init(options: FirebaseRemoteConfigOptions, name: String = "firebase") {
        self.options = options
        self.name = name
    }

    /// Performs one fetch.
    ///
    /// - Parameter request: The ETag, custom signals and timeout.
    /// - Returns: The parsed response.
    /// - Throws: ``RemoteConfigProviderError``: `.timedOut` after `request.timeout`, `.transport` for
    ///   refused/reset/truncated connections, `.httpStatus` for non-200 answers (with the server's message),
    ///   `.serverError` for a 200 error body, `.invalidResponse` for malformed, oversized or non-JSON bodies.
    public func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError) -> RemoteConfigFetchResponse {
        guard let url = options.fetchURL else {
            throw .invalidResponse("cannot build the fetch URL from base \(options.baseURL) and project \(options.projectID)")
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "POST"
        urlRequest.cachePolicy = .reloadIgnoringLocalCacheData
        // swift-corelibs-foundation rounds timeouts down to whole seconds; RemoteConfig enforces the exact one.
        urlRequest.timeoutInterval = max(1, request.timeout.rounded(.up))
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.setValue("application/json", forHTTPHeaderField: "Accept")
        if let eTag = request.eTag, !eTag.isEmpty {
            urlRequest.setValue(eTag, forHTTPHeaderField: "if-none-match")
        }
        if !options.appInstanceIDToken.isEmpty {
            urlRequest.setValue(options.appInstanceIDToken, forHTTPHeaderField: "x-goog-firebase-installations-auth")
        }
        urlRequest.httpBody = try requestBody(customSignals: request.customSignals)

        let response = try await FirebaseHTTPTransport.send(
            urlRequest, maximumBytes: options.maximumResponseBytes, timeout: request.timeout)
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
    public func requestBody(customSignals: [String: String]) throws(RemoteConfigProviderError) -> Data {
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
