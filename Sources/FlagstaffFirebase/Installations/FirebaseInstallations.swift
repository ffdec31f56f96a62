import Flagstaff
import FlagstaffRemote
import Foundation

/// Registers and keeps a Firebase installation through the Installations REST API, as the Apple SDK does.
///
/// - Register: `POST {root}/v1/projects/{projectID}/installations/` with `X-Goog-Api-Key`,
///   `X-Ios-Bundle-Identifier` and `{"fid","authVersion":"FIS_v2","appId","sdkVersion"}`; the answer carries the
///   FID, a refresh token and an auth token with `expiresIn` (`"604800s"`).
/// - Refresh: `POST {root}/v1/projects/{projectID}/installations/{fid}/authTokens:generate` with
///   `Authorization: FIS_v2 {refreshToken}` and `{"installation":{"sdkVersion"}}`, when the cached token expires
///   within an hour. A 401 or 404 means the installation is gone: a new one is created and registered.
///
/// The FID is created once and written before registration; the record (FID, tokens, expiry, first-open time)
/// is persisted in the storage directory when there is one. An actor, so concurrent fetches and the realtime
/// stream share one registration.
actor FirebaseInstallations {
    /// The SDK refreshes tokens that expire within this many seconds.
    static let refreshThreshold: TimeInterval = 60 * 60

    /// What a request needs: the installation ID, a non-empty auth token, and the first-open time if known.
    struct Credentials: Sendable, Equatable {
        var id: String
        var token: String
        var firstOpenTime: Date?
    }

    private let options: FirebaseRemoteConfigOptions
    private let transport: RemoteHTTPTransport
    private let now: @Sendable () -> Date
    private var record: FirebaseInstallationRecord?
    private var loadedFrom: URL??

    init(options: FirebaseRemoteConfigOptions, transport: RemoteHTTPTransport, now: @escaping @Sendable () -> Date) {
        self.options = options
        self.transport = transport
        self.now = now
    }

    /// Valid credentials: the cached ones, or after registering or refreshing.
    ///
    /// - Parameters:
    ///   - directory: Where the installation is persisted, or `nil` to keep it in memory.
    ///   - timeout: The deadline of each Installations request.
    /// - Returns: The installation ID, auth token and first-open time.
    /// - Throws: ``RemoteConfigProviderError``: `.httpStatus` with the service's message (429, 500, 503 and 504 back off
    ///   like fetches), `.invalidResponse` for an answer without the expected fields, `.missingCredentials`
    ///   for an empty token, `.transport`/`.timedOut` for connection failures.
    func credentials(directory: URL?, timeout: Duration) async throws(RemoteConfigProviderError) -> Credentials {
        // One registration or refresh at a time: callers arriving while one is under way (a fetch and the realtime
        // stream, say) share its outcome instead of registering twice across the actor's suspension points.
        if let pending { return try await pending.value.get() }
        let task = Task { await self.resolve(directory: directory, timeout: timeout) }
        pending = task
        let outcome = await task.value
        pending = nil
        return try outcome.get()
    }

    /// The credentials under way, shared by concurrent callers.
    private var pending: Task<Result<Credentials, RemoteConfigProviderError>, Never>?

    private func resolve(directory: URL?, timeout: Duration) async -> Result<Credentials, RemoteConfigProviderError> {
        do throws(RemoteConfigProviderError) {
            return .success(try await resolveThrowing(directory: directory, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }

    private func resolveThrowing(directory: URL?, timeout: Duration) async throws(RemoteConfigProviderError)
        -> Credentials
    {
        var current = loadRecord(directory: directory)
        if current.refreshToken == nil {
            current = try await register(current, directory: directory, timeout: timeout)
        } else if Self.needsRefresh(current, now: now()) {
            do {
                current = try await refresh(current, directory: directory, timeout: timeout)
            } catch  where error.status == 401 || error.status == 404 {
                // The server no longer knows this installation: start over with a new one, as the SDK does.
                var fresh = FirebaseInstallationRecord(
                    appID: options.appID, fid: FirebaseInstallationRecord.makeFID(),
                    firstOpenTime: current.firstOpenTime)
                store(&fresh, directory: directory)
                current = try await register(fresh, directory: directory, timeout: timeout)
            }
        }
        guard let token = current.authToken, !token.isEmpty else {
            throw .missingCredentials(
                "Firebase Installations returned no auth token (authToken.token) for installation \(current.fid)")
        }
        // Without a directory the recorded first-open time is this process's start: not worth sending.
        let firstOpen = options.firstOpenTime ?? (directory == nil ? nil : current.firstOpenTime)
        return Credentials(id: current.fid, token: token, firstOpenTime: firstOpen)
    }

    /// The installation ID in use, creating (and persisting) one if there is none yet; no request is made.
    func installationID(directory: URL?) -> String {
        loadRecord(directory: directory).fid
    }

    static func needsRefresh(_ record: FirebaseInstallationRecord, now: Date) -> Bool {
        guard let token = record.authToken, !token.isEmpty, let expiration = record.authTokenExpiration else {
            return true
        }
        return expiration.timeIntervalSince(now) < refreshThreshold
    }

    private func loadRecord(directory: URL?) -> FirebaseInstallationRecord {
        if let record, loadedFrom == .some(directory) { return record }
        var loaded = directory.flatMap(FirebaseInstallationRecord.load(from:))
        if loaded?.appID != options.appID { loaded = nil }
        var current =
            loaded
            ?? FirebaseInstallationRecord(
                appID: options.appID, fid: FirebaseInstallationRecord.makeFID(),
                firstOpenTime: options.firstOpenTime ?? now())
        if let firstOpen = options.firstOpenTime { current.firstOpenTime = firstOpen }
        loadedFrom = .some(directory)
        if loaded == nil || loaded != current { store(&current, directory: directory) } else { record = current }
        return current
    }

    private func store(_ updated: inout FirebaseInstallationRecord, directory: URL?) {
        record = updated
        loadedFrom = .some(directory)
        // A failed write keeps the installation in memory; the next launch registers again.
        if let directory { try? updated.save(to: directory) }
    }

    private var root: URL { options.resolvedInstallationsBaseURL }

    private func register(_ record: FirebaseInstallationRecord, directory: URL?, timeout: Duration)
        async throws(RemoteConfigProviderError) -> FirebaseInstallationRecord
    {
        let path = "/v1/projects/\(FirebaseRemoteConfigOptions.segment(options.projectID))/installations/"
        let body: [String: Any] = [
            "fid": record.fid, "authVersion": "FIS_v2", "appId": options.appID, "sdkVersion": options.sdkVersion,
        ]
        let json = try await post(path: path, body: body, authorization: nil, timeout: timeout, step: "registration")
        guard let refreshToken = json["refreshToken"] as? String, !refreshToken.isEmpty else {
            throw .invalidResponse("Firebase Installations registration: the answer has no refreshToken")
        }
        guard let authToken = json["authToken"] as? [String: Any] else {
            throw .invalidResponse("Firebase Installations registration: the answer has no authToken object")
        }
        let (token, expiration) = try parseToken(authToken, step: "registration", field: "authToken.")
        var updated = record
        if let fid = json["fid"] as? String, !fid.isEmpty { updated.fid = fid }
        updated.refreshToken = refreshToken
        updated.authToken = token
        updated.authTokenExpiration = expiration
        store(&updated, directory: directory)
        return updated
    }

    private func refresh(_ record: FirebaseInstallationRecord, directory: URL?, timeout: Duration)
        async throws(RemoteConfigProviderError) -> FirebaseInstallationRecord
    {
        let path =
            "/v1/projects/\(FirebaseRemoteConfigOptions.segment(options.projectID))/installations/"
            + "\(FirebaseRemoteConfigOptions.segment(record.fid))/authTokens:generate"
        let body: [String: Any] = ["installation": ["sdkVersion": options.sdkVersion]]
        let json = try await post(
            path: path, body: body, authorization: "FIS_v2 \(record.refreshToken ?? "")", timeout: timeout,
            step: "token refresh")
        let (token, expiration) = try parseToken(json, step: "token refresh", field: "")
        var updated = record
        updated.authToken = token
        updated.authTokenExpiration = expiration
        store(&updated, directory: directory)
        return updated
    }

    /// `token` and `expiresIn` (`"604800s"`) of a token object.
    private func parseToken(_ object: [String: Any], step: String, field: String)
        throws(RemoteConfigProviderError) -> (String, Date)
    {
        guard let token = object["token"] as? String, !token.isEmpty else {
            throw .missingCredentials("Firebase Installations \(step): the answer has no \(field)token")
        }
        guard let text = object["expiresIn"] as? String, text.hasSuffix("s"),
            let seconds = Double(text.dropLast()), seconds.isFinite, seconds >= 0
        else {
            throw .invalidResponse(
                "Firebase Installations \(step): \(field)expiresIn must be a duration such as \"604800s\"")
        }
        return (token, now().addingTimeInterval(seconds))
    }

    private func post(path: String, body: [String: Any], authorization: String?, timeout: Duration, step: String)
        async throws(RemoteConfigProviderError) -> [String: Any]
    {
        guard let url = FirebaseRemoteConfigOptions.url(root: root, path: path, apiKey: nil) else {
            throw .invalidResponse("cannot build the Installations URL from \(root)")
        }
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"), ("Accept", "application/json"), ("X-Goog-Api-Key", options.apiKey),
        ]
        if !options.bundleIdentifier.isEmpty { headers.append(("X-Ios-Bundle-Identifier", options.bundleIdentifier)) }
        if let authorization { headers.append(("Authorization", authorization)) }
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        let response: RemoteHTTPResponse
        switch await transport.send(
            RemoteHTTPRequest(method: "POST", url: url, headers: headers, body: data), timeout: timeout)
        {
        case .success(let answer): response = answer
        case .failure(let failure):
            let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
            throw RemoteConfigProviderError(failure, timeout: seconds)
        }
        guard (200..<300).contains(response.status) else {
            let message = FirebaseFetchResponseParser.errorMessage(in: response.body)
            throw .httpStatus(
                response.status, message: "Firebase Installations \(step)" + (message.map { ": \($0)" } ?? ""))
        }
        guard let json = (try? JSONValue.readFoundation(response.body)) as? [String: Any] else {
            throw .invalidResponse("Firebase Installations \(step): the answer is not a JSON object")
        }
        return json
    }
}
