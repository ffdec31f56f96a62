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

    private struct State {
        var parameters: [String: Parameter]
        var templateVersion = 1
        var fault = Fault.none
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
            let (parameters, version, fault) = box.state.withLock { ($0.parameters, $0.templateVersion, $0.fault) }
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
