import Flagstaff
import FlagstaffRemote
import FlagstaffTestSupport
import Foundation
import Synchronization

/// A loopback server that speaks the Firebase Remote Config `:fetch` protocol, evaluating a small template
/// with conditions (like the Moments seed's "Chinese users" condition), plus switchable faults.
final class FakeFirebaseServer: Sendable {
    /// One template parameter: a default and conditional values keyed by `language_code`.
    struct Parameter: Sendable {
        var defaultValue: String
        var byLanguage: [String: String] = [:]
    }

    /// How the server misbehaves for the next requests.
    enum Fault: Sendable, Equatable {
        case none
        case status(Int)
        case delay(seconds: Double)
        case malformedJSON
        case truncatedBody
        case oversizedBody
        case wrongContentType
        case closeWithoutResponse
        case errorBody
    }

    static let projectID = "moments-test"
    static let apiKey = "test-api-key"

    /// The Installations side: issued tokens and switchable answers.
    struct Installations: Sendable {
        /// FID → refresh token, for every registered installation.
        var refreshTokens: [String: String] = [:]
        /// Auth tokens issued and still valid.
        var authTokens: Set<String> = ["token-1"]
        /// How long issued tokens last, as sent in `expiresIn`.
        var expiresIn = "604800s"
        /// A status to answer registrations with instead of registering.
        var registrationStatus: Int?
        /// Answer registrations without `authToken.token`.
        var omitToken = false
        var registrations = 0
        var refreshes = 0
        var counter = 0
    }

    private struct State {
        var parameters: [String: Parameter]
        var templateVersion = 1
        var fault = Fault.none
        var installations = Installations()
    }

    /// Holds the template behind a lock, shared with the server's handler.
    private final class Box: Sendable {
        let state: AnnotatedMutex<State>
        init(_ state: State) { self.state = AnnotatedMutex(state) }
    }

    private let box: Box
    let server: LoopbackHTTPServer

    init(parameters: [String: Parameter] = FakeFirebaseServer.momentsTemplate) throws {
        let box = Box(State(parameters: parameters))
        self.box = box
        server = LoopbackHTTPServer { request in
            if request.path.contains("/installations") {
                return box.state.withLock { FakeFirebaseServer.installations(request, state: &$0.installations) }
            }
            let (parameters, version, fault, tokens) = box.state.withLock {
                ($0.parameters, $0.templateVersion, $0.fault, $0.installations.authTokens)
            }
            if fault == .none, let refusal = FakeFirebaseServer.checkInstallation(request, tokens: tokens) {
                return refusal
            }
            return FakeFirebaseServer.respond(to: request, parameters: parameters, version: version, fault: fault)
        }
        try server.start()
    }

    deinit {
        server.stop()
    }

    /// `isRoundedAvatar` is true for Chinese users; `welcomeText` varies; `maxPhotos` is plain.
    static let momentsTemplate: [String: Parameter] = [
        "isRoundedAvatar": Parameter(defaultValue: "false", byLanguage: ["zh": "true"]),
        "welcomeText": Parameter(defaultValue: "Welcome", byLanguage: ["zh": "欢迎"]),
        "maxPhotos": Parameter(defaultValue: "9"),
    ]

    var baseURL: URL { server.baseURL }
    var requests: [LoopbackRequest] { server.requests }

    func setFault(_ fault: Fault) {
        box.state.withLock { $0.fault = fault }
    }

    /// Reads or changes the Installations side.
    func installations<T>(_ body: (inout Installations) -> T) -> T {
        box.state.withLock { body(&$0.installations) }
    }

    /// The current template version.
    var templateVersion: Int { box.state.withLock { $0.templateVersion } }

    /// A fetch must carry a token this server issued, in the header and the body alike (as the real service
    /// checks the installation); otherwise 401.
    private static func checkInstallation(_ request: LoopbackRequest, tokens: Set<String>) -> LoopbackResponse? {
        guard request.path.hasSuffix(":fetch") else { return nil }
        let header = request.headers["x-goog-firebase-installations-auth"] ?? ""
        let body = request.jsonBody?["app_instance_id_token"] as? String ?? ""
        guard !header.isEmpty, header == body, tokens.contains(header) else {
            return .json(
                #"{"error":{"code":401,"status":"UNAUTHENTICATED","message":"installation token missing or invalid"}}"#,
                status: 401)
        }
        return nil
    }

    /// The Installations REST API: register, and generate auth tokens.
    private static func installations(_ request: LoopbackRequest, state: inout Installations) -> LoopbackResponse {
        guard request.method == "POST", request.headers["X-Goog-Api-Key"] == apiKey else {
            return .json(#"{"error":{"code":403,"status":"PERMISSION_DENIED","message":"bad API key"}}"#, status: 403)
        }
        let prefix = "/v1/projects/\(projectID)/installations/"
        guard request.path.hasPrefix(prefix) else { return .status(404) }
        let rest = String(request.path.dropFirst(prefix.count))
        state.counter += 1
        let token = "auth-\(state.counter)"
        if rest.isEmpty {
            state.registrations += 1
            if let status = state.registrationStatus {
                return .json(
                    #"{"error":{"code":\#(status),"status":"FAILED","message":"registration refused"}}"#, status: status
                )
            }
            guard let body = request.jsonBody, let fid = body["fid"] as? String, !fid.isEmpty,
                body["authVersion"] as? String == "FIS_v2", body["appId"] as? String == "1:42:ios:moments"
            else { return .json(#"{"error":{"code":400,"message":"bad registration body"}}"#, status: 400) }
            let refresh = "refresh-\(state.counter)"
            state.refreshTokens[fid] = refresh
            state.authTokens.insert(token)
            let authToken: [String: Any] =
                state.omitToken ? ["expiresIn": state.expiresIn] : ["token": token, "expiresIn": state.expiresIn]
            return .jsonObject([
                "name": "projects/\(projectID)/installations/\(fid)", "fid": fid, "refreshToken": refresh,
                "authToken": authToken,
            ])
        }
        guard rest.hasSuffix("/authTokens:generate") else { return .status(404) }
        state.refreshes += 1
        let fid = String(rest.dropLast("/authTokens:generate".count))
        guard let refresh = state.refreshTokens[fid] else {
            return .json(#"{"error":{"code":404,"message":"unknown installation"}}"#, status: 404)
        }
        guard request.headers["Authorization"] == "FIS_v2 \(refresh)" else {
            return .json(#"{"error":{"code":401,"message":"bad refresh token"}}"#, status: 401)
        }
        state.authTokens.insert(token)
        return .jsonObject(["token": token, "expiresIn": state.expiresIn])
    }

    /// Publishes a new template version with `parameters` changed (as a console edit would).
    func publish(_ changes: [String: Parameter?]) {
        box.state.withLock { current in
            for (key, parameter) in changes { current.parameters[key] = parameter }
            current.templateVersion += 1
        }
    }

    private static func respond(
        to request: LoopbackRequest, parameters: [String: Parameter], version: Int,
        fault: Fault
    ) -> LoopbackResponse {
        switch fault {
        case .none: break
        case .status(let status):
            return .json(
                #"{"error":{"code":\#(status),"status":"UNAVAILABLE","message":"injected \#(status)"}}"#, status: status
            )
        case .delay(let seconds):
            var response = LoopbackResponse.json(#"{"state":"NO_CHANGE"}"#)
            response.delay = .milliseconds(Int(seconds * 1000))
            return response
        case .malformedJSON:
            return .json(#"{"state":"UPDATE","entries":{"isRoundedAvatar":"#)
        case .truncatedBody:
            var response = LoopbackResponse.json(#"{"state":"UPDATE","entries":{"isRoundedAvatar":"false"}}"#)
            response.fault = .truncatedBody(sentBytes: 12)
            return response
        case .oversizedBody:
            return .oversized(bytes: 2 << 20)
        case .wrongContentType:
            var response = LoopbackResponse.json(#"{"state":"UPDATE","entries":{"isRoundedAvatar":"false"}}"#)
            response.headers["Content-Type"] = "text/html; charset=utf-8"
            return response
        case .closeWithoutResponse:
            return LoopbackResponse(fault: .closeWithoutResponse)
        case .errorBody:
            return .json(#"{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"bad app id"}}"#)
        }
        guard request.method == "POST",
            request.path == "/v1/projects/\(projectID)/namespaces/firebase:fetch"
        else { return .json(#"{"error":{"code":404,"status":"NOT_FOUND","message":"no such path"}}"#, status: 404) }
        guard request.query["key"] == apiKey else {
            return .json(
                #"{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"API key not valid"}}"#, status: 400)
        }
        guard let body = request.jsonBody, let appID = body["app_id"] as? String, !appID.isEmpty else {
            return .json(
                #"{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"body must be JSON with app_id"}}"#,
                status: 400)
        }
        let language = (body["language_code"] as? String) ?? ""
        let signals = (body["custom_signals"] as? [String: String]) ?? [:]
        var entries: [String: String] = [:]
        for (key, parameter) in parameters {
            entries[key] = parameter.byLanguage[language] ?? parameter.defaultValue
        }
        if let tier = signals["tier"] { entries["tier"] = tier }
        if entries.isEmpty {
            return .jsonObject(["state": "EMPTY_CONFIG", "templateVersion": String(version)])
        }
        let eTag =
            "\"etag-\(version)-\(language)-\(entries.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&").hashValue)\""
        if request.headers["if-none-match"] == eTag {
            return .jsonObject(["state": "NO_CHANGE", "templateVersion": String(version)], headers: ["ETag": eTag])
        }
        return .jsonObject(
            ["state": "UPDATE", "entries": entries, "templateVersion": String(version)],
            headers: ["ETag": eTag])
    }
}
