import FlagstaffRemote
import Foundation

extension FirebaseRemoteConfigProvider {
    /// The statuses after which the SDK retries the stream quietly: 429, 502, 503 and 504.
    static let retryableStreamStatuses: Set<Int> = [429, 502, 503, 504]
    /// The SDK's stream timeout: a connection silent for this long is closed and reopened.
    static let streamIdleTimeout: Duration = .seconds(330)

    /// Whether update listeners open the realtime stream: ``FirebaseRemoteConfigOptions/realtimeEnabled`` and a
    /// project number (given, or read from the app ID).
    public var isRealtimeEnabled: Bool {
        options.realtimeEnabled && options.realtimeURL != nil
    }

    /// Opens one connection to the realtime invalidation stream, as the SDK does when a listener is added.
    ///
    /// `POST {realtime}/v1/projects/{projectNumber}/namespaces/{namespace}:streamFetchInvalidations?key={apiKey}`
    /// with `X-Goog-Api-Key`, `X-Google-GFE-Can-Retry: true`, `x-goog-firebase-installations-auth`,
    /// `X-Ios-Bundle-Identifier`, `if-none-match` and the JSON body `{"project","namespace",
    /// "lastKnownVersionNumber","appId","sdkVersion","appInstanceId"}`. The server keeps the response open and
    /// writes JSON objects such as `{"latestTemplateVersionNumber": "12"}` (or `featureDisabled`,
    /// `retryIntervalSeconds`) as templates are published.
    ///
    /// - Parameter request: The last known template version and ETag.
    /// - Returns: The connection's events; it ends with the connection.
    public func openInvalidationStream(_ request: RemoteConfigStreamRequest) -> AsyncStream<RemoteConfigStreamEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: RemoteConfigStreamEvent.self)
        let task = Task {
            await runStream(request, continuation: continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func runStream(
        _ request: RemoteConfigStreamRequest, continuation: AsyncStream<RemoteConfigStreamEvent>.Continuation
    ) async {
        guard let url = options.realtimeURL, let projectNumber = options.resolvedProjectNumber else {
            continuation.yield(
                .failed(
                    .invalidResponse("no project number: set projectNumber or use an app ID 1:<number>:…"),
                    retryable: false))
            return
        }
        let identity: FirebaseInstallations.Credentials?
        do {
            identity = try await installationCredentials(timeout: .seconds(60))
        } catch {
            continuation.yield(.failed(error, retryable: error.triggersBackoff || Self.isConnectionFailure(error)))
            return
        }
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("Accept", "application/json"),
            ("X-Google-GFE-Can-Retry", "true"), ("X-Goog-Api-Key", options.apiKey),
        ]
        if let identity { headers.append(("x-goog-firebase-installations-auth", identity.token)) }
        if !options.bundleIdentifier.isEmpty { headers.append(("X-Ios-Bundle-Identifier", options.bundleIdentifier)) }
        if let eTag = request.eTag, !eTag.isEmpty { headers.append(("if-none-match", eTag)) }
        let body: [String: Any] = [
            "project": projectNumber, "namespace": options.namespace,
            "lastKnownVersionNumber": request.lastKnownTemplateVersion ?? "0", "appId": options.appID,
            "sdkVersion": options.sdkVersion, "appInstanceId": identity?.id ?? "",
        ]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        var reader = FirebaseRealtimeMessageReader()
        let events = streamTransport.openStream(
            RemoteHTTPRequest(method: "POST", url: url, headers: headers, body: data),
            idleTimeout: Self.streamIdleTimeout)
        var status = 0
        var errorBody = Data()
        for await event in events {
            switch event {
            case .response(let code, _):
                status = code
                if code == 200 { continuation.yield(.connected) }
            case .data(let bytes) where status == 200 || status == 403:
                for message in reader.append(bytes) { continuation.yield(message) }
            case .data(let bytes):
                if errorBody.count < 4096 { errorBody.append(bytes.prefix(4096 - errorBody.count)) }
            case .finished(let failure):
                if status != 200 && status != 403 && status != 0 {
                    let message = FirebaseFetchResponseParser.errorMessage(in: errorBody)
                    continuation.yield(
                        .failed(
                            .httpStatus(status, message: message),
                            retryable: Self.retryableStreamStatuses.contains(status)))
                } else if let failure, failure != .cancelled {
                    continuation.yield(.failed(RemoteConfigProviderError(failure, timeout: 330), retryable: true))
                }
                return
            }
        }
    }

    private static func isConnectionFailure(_ error: RemoteConfigProviderError) -> Bool {
        error.isTransport || error.isTimedOut
    }
}
