import Flagstaff
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small real HTTP/1.1 server on 127.0.0.1 for tests of HTTP clients and remote-config providers.
///
/// Each server binds an ephemeral port (or a given one), accepts connections on its own thread and serves
/// each connection on a thread of its own: it reads one request, calls the handler, writes the response and
/// closes the connection (`Connection: close`); with `keepAlive`, it reads the next request on the same
/// connection until the client closes it (or it idles for 2 minutes). Every request is recorded in ``requests``
/// before the handler runs, and what was written for it in ``deliveries``; ``acceptedConnectionCount`` and
/// ``openConnectionCount`` show whether a client reused or closed its connections.
///
/// Fault injection lives in the response: ``LoopbackResponse/delay`` (client timeouts),
/// ``LoopbackFault/truncatedBody(sentBytes:)``, ``LoopbackFault/closeWithoutResponse``,
/// ``LoopbackFault/resetConnection``, ``LoopbackResponse/oversized(bytes:contentType:)`` and any
/// `Content-Type` you like. For "connection refused", use ``LoopbackRefusedPort``.
///
/// ```swift
/// let server = LoopbackHTTPServer { request in
///     request.path == "/health" ? .text("ok") : .status(404)
/// }
/// try server.start()
/// defer { server.stop() }
/// let url = server.baseURL.appendingPathComponent("health")
/// ```
///
/// Thread-safety: all members may be called from any thread. The handler runs on connection threads,
/// possibly several at once, so it must be `@Sendable`. ``stop()`` interrupts delays, waits for in-flight
/// connections to finish and is idempotent; a stopped server cannot be restarted (create a new one, optionally
/// on the same ``port``). Dropping the last reference also stops the server.
package final class LoopbackHTTPServer: Sendable {
    /// The closure that turns a request into a response; runs on a connection thread.
    package typealias Handler = @Sendable (LoopbackRequest) -> LoopbackResponse

    private let core: LoopbackServerCore
    private let requestedPort: UInt16

    /// Creates a server that is not yet listening.
    ///
    /// - Parameters:
    ///   - port: The port to bind on 127.0.0.1; `0` (the default) picks a free ephemeral port.
    ///   - keepAlive: Serve several requests per connection (no `Connection: close`).
    ///   - handler: Produces the response for each request.
    package init(port: UInt16 = 0, keepAlive: Bool = false, handler: @escaping Handler) {
        requestedPort = port
        core = LoopbackServerCore(handler: handler, keepAlive: keepAlive)
    }

    deinit {
        core.stop()
    }

    /// Creates and starts a server in one step.
    ///
    /// - Parameters:
    ///   - port: The port to bind; `0` for an ephemeral port.
    ///   - keepAlive: Serve several requests per connection.
    ///   - handler: Produces the response for each request.
    /// - Returns: The running server.
    /// - Throws: ``LoopbackHTTPError`` if the socket cannot be bound or listened on.
    package static func started(port: UInt16 = 0, keepAlive: Bool = false, handler: @escaping Handler) throws
        -> LoopbackHTTPServer
    {
        let server = LoopbackHTTPServer(port: port, keepAlive: keepAlive, handler: handler)
        try server.start()
        return server
    }

    /// Binds 127.0.0.1, starts listening and starts the accept thread.
    ///
    /// - Throws: ``LoopbackHTTPError`` if binding or listening fails, or if the server was already started.
    package func start() throws {
        try core.start(port: requestedPort)
    }

    /// Stops accepting, interrupts response delays, waits for in-flight connections and closes the socket.
    ///
    /// Safe to call more than once and from any thread except a handler.
    package func stop() {
        core.stop()
    }

    /// The bound port, or `0` before ``start()``.
    package var port: UInt16 { core.port }

    /// `http://127.0.0.1:<port>` (no trailing slash).
    package var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// Builds a URL on this server from a path (with or without a leading `/`) and an optional query string.
    ///
    /// - Parameter pathAndQuery: For example `"/v1/fetch?key=abc"`.
    /// - Returns: The absolute URL.
    package func url(_ pathAndQuery: String) -> URL {
        let suffix = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        return URL(string: "http://127.0.0.1:\(port)\(suffix)") ?? baseURL
    }

    /// Replaces the handler; requests arriving afterwards use the new one.
    ///
    /// - Parameter handler: The new handler.
    package func setHandler(_ handler: @escaping Handler) {
        core.setHandler(handler)
    }

    /// Every request received so far, in arrival order.
    package var requests: [LoopbackRequest] { core.recordedRequests }

    /// The number of requests received so far.
    package var requestCount: Int { core.recordedRequests.count }

    /// What was written for each response so far, in the order the responses ended.
    package var deliveries: [LoopbackDelivery] { core.counters.deliveries }

    /// The number of connections accepted so far.
    package var acceptedConnectionCount: Int { core.counters.accepted }

    /// The number of connections open now (accepted and not yet closed by either side).
    package var openConnectionCount: Int { core.counters.open }

    /// Waits until `condition` holds, checking every 5 ms until `timeout` passes.
    ///
    /// - Parameters:
    ///   - timeout: The longest time to wait.
    ///   - condition: What to wait for, e.g. `{ $0.openConnectionCount == 0 }`.
    /// - Returns: Whether it held in time.
    package func wait(timeout: Duration = .seconds(30), until condition: @Sendable (LoopbackHTTPServer) -> Bool) async
        -> Bool
    {
        await eventually(timeout: timeout) { condition(self) }
    }

    /// Forgets the recorded requests.
    package func clearRequests() {
        core.clearRequests()
    }

    /// Waits until at least `count` requests have been received, polling until `timeout` passes.
    ///
    /// - Parameters:
    ///   - count: The number of requests to wait for.
    ///   - timeout: The longest time to wait.
    /// - Returns: `true` if the count was reached in time.
    package func waitForRequests(count: Int, timeout: Duration = .seconds(30)) async -> Bool {
        await wait(timeout: timeout) { $0.requestCount >= count }
    }
}

/// The shared state of a server, owned by the server object and by its threads (so the server's `deinit`
/// can run while threads are alive).
final class LoopbackServerCore: Sendable {
    private struct State {
        var handler: LoopbackHTTPServer.Handler
        var requests: [LoopbackRequest] = []
        var listenFD: Int32 = -1
        var wakeRead: Int32 = -1
        var wakeWrite: Int32 = -1
        var port: UInt16 = 0
        var started = false
        var stopped = false
        /// Connections being served: `stop()` shuts them down, so a handler blocked writing to a client that
        /// stopped reading ends instead of keeping `stop()` (and the test calling it) waiting forever.
        var clients: Set<Int32> = []
    }

    /// What the connections did, for ``LoopbackHTTPServer/deliveries`` and the connection counts.
    struct Counters {
        var deliveries: [LoopbackDelivery] = []
        var accepted = 0
        var open = 0
    }

    private let state: AnnotatedMutex<State>
    private let counting = AnnotatedMutex(Counters())
    private let keepAlive: Bool
    /// Counts the accept thread and live connection threads; `stop()` waits on it. DispatchGroup is thread-safe.
    private let group = DispatchGroup()

    init(handler: @escaping LoopbackHTTPServer.Handler, keepAlive: Bool) {
        state = AnnotatedMutex(State(handler: handler))
        self.keepAlive = keepAlive
    }

    var counters: Counters { counting.withLock { $0 } }

    var port: UInt16 { state.withLock { $0.port } }
    var recordedRequests: [LoopbackRequest] { state.withLock { $0.requests } }

    func clearRequests() { state.withLock { $0.requests.removeAll() } }
    func setHandler(_ handler: @escaping LoopbackHTTPServer.Handler) { state.withLock { $0.handler = handler } }

    func start(port requested: UInt16) throws {
        if state.withLock({ $0.started }) {
            throw LoopbackHTTPError(operation: "start (already started)", code: EINVAL)
        }
        let fd = try LoopbackSocket.makeBound(port: requested)
        guard listen(fd, 64) == 0 else {
            let code = errno
            close(fd)
            throw LoopbackHTTPError(operation: "listen", code: code)
        }
        let boundPort: UInt16
        do { boundPort = try LoopbackSocket.localPort(of: fd) } catch {
            close(fd)
            throw error
        }
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else {
            let code = errno
            close(fd)
            throw LoopbackHTTPError(operation: "pipe", code: code)
        }
        state.withLock {
            $0.listenFD = fd
            $0.wakeRead = pipeFDs[0]
            $0.wakeWrite = pipeFDs[1]
            $0.port = boundPort
            $0.started = true
        }
        let wakeRead = pipeFDs[0]
        group.enter()
        let thread = Thread { [self] in
            acceptLoop(listenFD: fd, wakeFD: wakeRead)
            group.leave()
        }
        thread.name = "LoopbackHTTPServer.accept:\(boundPort)"
        thread.start()
    }

    private func acceptLoop(listenFD: Int32, wakeFD: Int32) {
        while true {
            switch LoopbackSocket.waitReadable(listenFD, wakeFD: wakeFD, timeoutMilliseconds: -1) {
            case .stopped: return
            case .timedOut: continue
            case .ready: break
            }
            let client = accept(listenFD, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == EAGAIN || errno == ECONNABORTED { continue }
                return
            }
            #if canImport(Darwin)
            var one: Int32 = 1
            _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
            #endif
            // A write to a client that stopped reading gives up after 5 s rather than blocking its thread.
            var limit = timeval(tv_sec: 5, tv_usec: 0)
            _ = setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.clients.insert(client)
                return true
            }
            guard admitted else {
                close(client)
                return
            }
            group.enter()
            let thread = Thread { [self] in
                serve(clientFD: client, wakeFD: wakeFD)
                group.leave()
            }
            thread.name = "LoopbackHTTPServer.connection"
            thread.start()
        }
    }

    private func serve(clientFD: Int32, wakeFD: Int32) {
        let number = counting.withLock {
            $0.accepted += 1
            $0.open += 1
            return $0.accepted
        }
        defer {
            // Forget and close under one lock: once closed, the number may name another test's socket, which a
            // concurrent `stop()` must not shut down (that refused connections to an unrelated server).
            state.withLock {
                _ = $0.clients.remove(clientFD)
                close(clientFD)
            }
            counting.withLock { $0.open -= 1 }
        }
        var connection = LoopbackHTTPConnection(fd: clientFD, wakeFD: wakeFD)
        while var request = connection.readRequest() {
            request.connection = number
            let handler = state.withLock {
                $0.requests.append(request)
                return $0.handler
            }
            let (delivery, open) = connection.respond(handler(request), keepAlive: keepAlive)
            counting.withLock { $0.deliveries.append(delivery) }
            if !open { return }
        }
    }

    func stop() {
        let fds: (listen: Int32, wakeRead: Int32, wakeWrite: Int32)? = state.withLock {
            guard $0.started, !$0.stopped else { return nil }
            $0.stopped = true
            for client in $0.clients { _ = shutdown(client, Int32(SHUT_RDWR)) }
            return ($0.listenFD, $0.wakeRead, $0.wakeWrite)
        }
        guard let fds else { return }
        var byte: UInt8 = 1
        _ = write(fds.wakeWrite, &byte, 1)
        group.wait()
        close(fds.listen)
        close(fds.wakeRead)
        close(fds.wakeWrite)
    }
}
