import Flagstaff
import FlagstaffTestSupport
import Foundation

/// A loopback OFREP server for the provider's tests: `POST /ofrep/v1/evaluate/flags` answers the flags set by
/// the test with an `ETag` (and `304` for a matching `If-None-Match`), offers `GET /events` as its event stream
/// when `streaming` is on, and answers any other status the test sets.
final class FakeOFREPServer: Sendable {
    private struct State {
        var flags: [String: String] = [:]
        var version = 1
        var streaming = true
        var status: Int?
        var bulkDelay: Duration = .zero
    }

    /// The state, in an object the handler shares (the mutex itself cannot be copied into it).
    private final class Shared: Sendable {
        let mutex = AnnotatedMutex(State())
    }

    let events = LoopbackEventStream()
    private let shared = Shared()
    private var state: AnnotatedMutex<State> { _read { yield shared.mutex } }
    let server: LoopbackHTTPServer

    /// Starts a server with these flags (values as JSON text).
    init(flags: [String: String], streaming: Bool = true) throws {
        let shared = self.shared
        let events = self.events
        shared.mutex.withLock {
            $0.flags = flags
            $0.streaming = streaming
        }
        server = try LoopbackHTTPServer.started(keepAlive: true) { request in
            if request.method == "GET", request.path == "/events" { return .eventStream(events) }
            guard request.method == "POST", request.path == "/ofrep/v1/evaluate/flags" else { return .status(404) }
            let (flags, version, streaming, status, delay) = shared.mutex.withLock {
                ($0.flags, $0.version, $0.streaming, $0.status, $0.bulkDelay)
            }
            if let status { return .json(#"{"errorDetails":"scripted status"}"#, status: status) }
            let etag = "\"v\(version)\""
            if request.headers["If-None-Match"] == etag { return .status(304, headers: ["ETag": etag]) }
            let entries = flags.keys.sorted().map {
                #"{"key":"\#($0)","value":\#(flags[$0] ?? "null"),"reason":"STATIC"}"#
            }
            let streams = streaming ? #","eventStreams":[{"type":"sse","endpoint":{"requestUri":"/events"}}]"# : ""
            var response = LoopbackResponse.json(
                #"{"flags":[\#(entries.joined(separator: ","))]\#(streams)}"#, headers: ["ETag": etag])
            response.delay = delay
            return response
        }
    }

    deinit { server.stop() }

    var baseURL: URL { server.baseURL }

    /// The bulk evaluation requests received so far.
    var bulkRequests: [LoopbackRequest] { server.requests.filter { $0.method == "POST" } }

    /// The event stream requests received so far.
    var streamRequests: [LoopbackRequest] { server.requests.filter { $0.method == "GET" } }

    /// Changes a flag (a new version and ETag) without telling anyone.
    func set(_ key: String, _ json: String?) {
        state.withLock {
            $0.flags[key] = json
            $0.version += 1
        }
    }

    /// Changes a flag and announces it on the event stream, as ADR-0008 says.
    func publish(_ key: String, _ json: String?, id: String) {
        set(key, json)
        let version = state.withLock { $0.version }
        events.send(
            data: #"{"type":"refetchEvaluation","etag":"\"v\#(version)\"","lastModified":1771622898}"#, id: id)
    }

    func answer(status: Int?) { state.withLock { $0.status = status } }
    func delayBulk(_ delay: Duration) { state.withLock { $0.bulkDelay = delay } }
}
