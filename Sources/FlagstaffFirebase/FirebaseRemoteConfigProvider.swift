import Flagstaff
import FlagstaffRemote
import Foundation

/// Fetches Firebase Remote Config templates over the REST API, for ``RemoteConfig``.
///
/// Each fetch first makes sure of a Firebase installation (``FirebaseInstallationMode``: registered through the
/// Installations REST API by default, its ID persisted beside the config and its token cached until an hour
/// before expiry), then sends `POST {base}/v1/projects/{projectID}/namespaces/{namespace}:fetch?key={apiKey}` with
/// the SDK's headers (`x-goog-firebase-installations-auth`, `X-Ios-Bundle-Identifier`, `X-Firebase-RC-Fetch-Type`,
/// `if-none-match`) and a strict-JSON body (`app_instance_id`, `app_instance_id_token`, `app_id`,
/// `country_code`, `language_code`, `platform_version`, `time_zone`, `package_name`, `app_version`, `app_build`,
/// `sdk_version`, `first_open_time`, `analytics_user_properties`, `custom_signals`). Response states are handled
/// like the Apple SDK (`NO_CHANGE` and HTTP 304 keep the fetched config; `EMPTY_CONFIG` and `NO_TEMPLATE` empty
/// it).
///
/// ```swift
/// let firebase = FirebaseRemoteConfigProvider(options: FirebaseRemoteConfigOptions(
///     projectID: "moments-4f2a1", apiKey: apiKey, appID: "1:123:ios:abc"))
/// let config = RemoteConfig(provider: firebase, storageDirectory: cacheURL)   // the installation is kept there too
/// ```
///
/// The provider also opens the realtime invalidation stream for ``RemoteConfig``'s update listeners (see
/// ``openInvalidationStream(_:)``).
///
/// HTTP runs on Foundation's `URLSession` (FoundationNetworking on Linux) with caching disabled, one session per
/// provider (fetches reuse its connection when the server keeps it open; it is closed when the provider is
/// released); bodies over ``FirebaseRemoteConfigOptions/maximumResponseBytes`` are cut off as soon as they pass
/// the limit, and each fetch ends at `request.timeout` exactly.
public struct FirebaseRemoteConfigProvider: RemoteConfigRealtimeProvider {
    /// `"firebase"`.
    public let name: String
    /// The endpoint and device fields.
    public let options: FirebaseRemoteConfigOptions
    /// The provider's HTTP session; shared by its copies.
    let transport: RemoteHTTPTransport
    /// The realtime stream's session (no body limit per stream; messages are small and bounded separately).
    let streamTransport: RemoteHTTPTransport
    /// State shared by the provider's copies: the storage directory, the analytics user properties and the
    /// installation.
    let shared: Shared

    /// The mutable part of a provider, shared by its copies.
    final class Shared: Sendable {
        struct Values {
            var storageDirectory: URL?
            var analyticsUserProperties: [String: String] = [:]
        }

        let values: AnnotatedMutex<Values>
        let installations: FirebaseInstallations

        init(options: FirebaseRemoteConfigOptions, transport: RemoteHTTPTransport, now: @escaping @Sendable () -> Date)
        {
            values = AnnotatedMutex(Values(storageDirectory: options.storageDirectory))
            installations = FirebaseInstallations(options: options, transport: transport, now: now)
        }
    }

    /// Creates a provider.
    ///
    /// - Parameters:
    ///   - options: The endpoint and device fields.
    ///   - name: The display name, `"firebase"` by default.
    ///   - now: The wall-clock source for installation token expiry (`Date()` by default; tests pass a
    ///     `ManualClock`'s date).
    public init(
        options: FirebaseRemoteConfigOptions, name: String = "firebase",
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.options = options
        self.name = name
        let transport = RemoteHTTPTransport(
            label: "flagstaff.firebase", maximumResponseBytes: options.maximumResponseBytes)
        self.transport = transport
        streamTransport = RemoteHTTPTransport(label: "flagstaff.firebase.realtime", maximumResponseBytes: 0)
        shared = Shared(options: options, transport: transport, now: now)
    }

    /// Sets the Analytics user properties sent with every fetch (`analytics_user_properties`), for conditions
    /// on user properties. A `_fot` entry (first-open time in milliseconds, as Analytics reports it) is sent as
    /// `first_open_time` instead, as the SDK does.
    ///
    /// - Parameter properties: Property name → value; empty sends none.
    public func setAnalyticsUserProperties(_ properties: [String: String]) {
        shared.values.withLock { $0.analyticsUserProperties = properties }
    }

    /// The Analytics user properties sent with every fetch.
    public var analyticsUserProperties: [String: String] {
        shared.values.withLock { $0.analyticsUserProperties }
    }

    /// Keeps the installation in the config's directory unless ``FirebaseRemoteConfigOptions/storageDirectory``
    /// names another.
    ///
    /// - Parameter directory: The config's storage directory.
    public func prepare(storageDirectory directory: URL?) {
        shared.values.withLock { values in
            if values.storageDirectory == nil { values.storageDirectory = directory }
        }
    }

    /// The app version, build, OS version, language and app ID: a change skips the minimum fetch interval, as in
    /// the SDK.
    public var deviceContext: [String: String] {
        [
            "app_version": options.appVersion, "app_build": options.appBuild, "os_version": options.platformVersion,
            "device_locale": options.languageCode, "GMP_project_Identifier": options.appID,
        ]
    }

    /// Performs one fetch.
    ///
    /// - Parameter request: The ETag, custom signals and timeout.
    /// - Returns: The parsed response.
    /// - Throws: ``RemoteConfigProviderError``: `.missingCredentials` when a provided installation token is empty
    ///   or the Installations service returned none, `.httpStatus` for non-200 answers (Installations answers
    ///   included, with the service's message), `.timedOut` after `request.timeout`, `.transport` for
    ///   refused/reset/truncated connections, `.serverError` for a 200 error body, `.invalidResponse` for
    ///   malformed, oversized or non-JSON bodies.
    public func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError)
        -> RemoteConfigFetchResponse
    {
        guard let url = options.fetchURL else {
            throw .invalidResponse(
                "cannot build the fetch URL from base \(options.baseURL) and project \(options.projectID)")
        }
        let timeout = Self.duration(request.timeout)
        let identity = try await installationCredentials(timeout: timeout)
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("Accept", "application/json"),
            ("X-Firebase-RC-Fetch-Type", request.realtimeAttempt.map { "REALTIME/\($0)" } ?? "BASE/1"),
        ]
        if let identity { headers.append(("x-goog-firebase-installations-auth", identity.token)) }
        if !options.bundleIdentifier.isEmpty { headers.append(("X-Ios-Bundle-Identifier", options.bundleIdentifier)) }
        if let eTag = request.eTag, !eTag.isEmpty { headers.append(("if-none-match", eTag)) }
        let body = try requestBody(
            customSignals: request.customSignals, identity: identity,
            userProperties: analyticsUserProperties)
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

    /// The installation to send, per ``FirebaseRemoteConfigOptions/installation``; `nil` for `.none`.
    func installationCredentials(timeout: Duration) async throws(RemoteConfigProviderError)
        -> FirebaseInstallations.Credentials?
    {
        let directory = shared.values.withLock { $0.storageDirectory }
        switch options.installation {
        case .none:
            return nil
        case .provided(let id, let token):
            guard !token.isEmpty else {
                throw .missingCredentials(
                    "the Firebase installation auth token is empty: pass the installation's token in "
                        + "FirebaseInstallationMode.provided(id:token:), or use .automatic to register one")
            }
            guard !id.isEmpty else {
                throw .missingCredentials(
                    "the Firebase installation ID is empty: pass it in FirebaseInstallationMode.provided(id:token:)")
            }
            return FirebaseInstallations.Credentials(id: id, token: token, firstOpenTime: options.firstOpenTime)
        case .automatic:
            return try await shared.installations.credentials(directory: directory, timeout: timeout)
        }
    }

    /// A timeout in seconds as a duration: non-finite or non-positive means 60 s.
    static func duration(_ seconds: TimeInterval) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return .seconds(60) }
        return .milliseconds(Int64(min(max(seconds, 0.001), 1e9) * 1000))
    }
}
