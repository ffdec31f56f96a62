import Flagstaff
import FlagstaffTestSupport
import Foundation

/// A loopback OFREP server for the provider's tests: `POST /ofrep/v1/evaluate/flags` answers the flags set by
/// the test with an `ETag` (and `304` for a matching `If-None-Match`), offers `GET /events` as its event stream
/// when `streaming` is on (with `inactivityDelaySec` when given), and answers any other status the test sets.
final class FakeOFREPServer: Sendable {
    private struct State {
        var flags: [String: String] = [:]
        var version = 1
        var streaming = true
        var status: Int?
        var bulkDelay: Duration = .zero
        var holdNextBulk = false
    }

    /// The state, in an object the handler shares (the mutex itself cannot be copied into it).
    private final class Shared: Sendable {
        let mutex = AnnotatedMutex(State())
        /// Signalled to let a held bulk answer go (see ``FakeOFREPServer/holdNextBulk()``).
        let release = DispatchSemaphore(value: 0)
    }

    let events = LoopbackEventStream()
    private let shared = Shared()
    private var state: AnnotatedMutex<State> { _read { yield shared.mutex } }
    let server: LoopbackHTTPServer

    /// Starts a server with these flags (values as JSON text).
    init(flags: [String: String], streaming: Bool = true, inactivityDelaySec: Int? = nil) throws {
        let shared = self.shared
        let events = self.events
        shared.mutex.withLock {
            $0.flags = flags
            $0.streaming = streaming
        }
        server = try LoopbackHTTPServer.started(keepAlive: true) { request in
            if request.method == "GET", request.path == "/events" { return .eventStream(events) }
            guard request.method == "POST", request.path == "/ofrep/v1/evaluate/flags" else { return .status(404) }
            let (flags, version, streaming, status, delay, hold) = shared.mutex.withLock { state in
                defer { state.holdNextBulk = false }
                return (state.flags, state.version, state.streaming, state.status, state.bulkDelay, state.holdNextBulk)
            }
            // On the connection's own thread (never the concurrency pool); bounded so a test that forgets to
            // release cannot hang the server's stop.
            if hold { _ = shared.release.wait(timeout: .now() + 120) }
            if let status { return .json(#"{"errorDetails":"scripted status"}"#, status: status) }
            let etag = "\"v\(version)\""
            if request.headers["If-None-Match"] == etag { return .status(304, headers: ["ETag": etag]) }
            let entries = flags.keys.sorted().map {
                #"{"key":"\#($0)","value":\#(flags[$0] ?? "null"),"reason":"STATIC"}"#
            }
            let inactivity = inactivityDelaySec.map { #","inactivityDelaySec":\#($0)"# } ?? ""
            let streams =
                streaming ? #","eventStreams":[{"type":"sse","endpoint":{"requestUri":"/events"}\#(inactivity)}]"# : ""
            var response = LoopbackResponse.json(
                #"{"flags":[\#(entries.joined(separator: ","))]\#(streams)}"#, headers: ["ETag": etag])
            response.delay = delay
            return response
        }
    }

    deinit {
        shared.release.signal()
        server.stop()
    }

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

    /// Holds the next bulk answer (made from the flags as they are when the request arrives) until
    /// ``releaseBulk()``: a fetch stays under way for as long as the test needs, whatever the machine's load.
    func holdNextBulk() { state.withLock { $0.holdNextBulk = true } }

    /// Lets the held bulk answer go.
    func releaseBulk() { shared.release.signal() }
}
