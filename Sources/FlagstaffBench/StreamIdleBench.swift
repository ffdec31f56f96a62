import Flagstaff
import FlagstaffFirebase
import FlagstaffRemote
import FlagstaffUnleash
import Foundation

#if canImport(Glibc)
import Glibc

/// `flagstaff-bench idle-streams`: the CPU a process spends while it follows an idle event stream (OFREP's, the
/// Unleash streaming client's, Firebase realtime's), beside the same process following none
/// (docs/performance.md, "Idle event streams").
///
/// The server is a small one of this benchmark's own whose connections take a round trip to open, as on any
/// real network: its accept queue is kept full, so a client's first SYN is dropped and sent again a second
/// later. (On an idle loopback the connect completes inside the call, and the cost this measures never shows.)
enum StreamIdleBench {
    /// How long each client idles while its CPU time is counted.
    static let window: Duration = .seconds(10)

    static func run() {
        print("== idle-streams (CPU of one process following an idle stream for 10 s, connect after a round trip) ==")
        guard let server = SlowConnectServer() else { return print("idle-streams: cannot start the server") }
        defer { server.stop() }
        let base = URL(string: "http://127.0.0.1:\(server.port)") ?? URL(fileURLWithPath: "/")
        let idle = cpuWhile(server: server, streams: 0) {}
        report("no stream (the process idle)", idle, baseline: nil)

        let ofrep = OFREPProvider(options: OFREPOptions(baseURL: base))
        report(
            "OFREP event stream (opened after its fetch)", cpuWhile(server: server, streams: 1) { ofrep.start() },
            baseline: idle)
        ofrep.stop()
        server.waitForStreams(0)

        let unleash = try? UnleashServerClient(
            url: base.appendingPathComponent("api"), apiKey: "*:production.key", appName: "bench",
            refreshInterval: .seconds(3600), disableMetrics: true, experimentalMode: .streaming)
        report(
            "Unleash streaming client",
            cpuWhile(server: server, streams: 1) { if let unleash { Task { await unleash.start() } } }, baseline: idle)
        unleash?.stop()
        server.waitForStreams(0)

        let firebase = FirebaseRemoteConfigProvider(
            options: FirebaseRemoteConfigOptions(
                projectID: "bench", apiKey: "key", appID: "1:42:ios:bench", baseURL: base, realtimeBaseURL: base,
                installation: .none))
        let listening = AnnotatedMutex<Task<Void, Never>?>(nil)
        report(
            "Firebase realtime stream",
            cpuWhile(server: server, streams: 1) {
                listening.withLock {
                    $0 = Task { for await _ in firebase.openInvalidationStream(RemoteConfigStreamRequest()) {} }
                }
            }, baseline: idle)
        listening.withLock { $0?.cancel() }
        server.waitForStreams(0)
    }

    /// Starts a client, waits for its stream(s) to open, then counts the process's CPU time over ``window``.
    private static func cpuWhile(server: SlowConnectServer, streams: Int, start: () -> Void) -> Duration? {
        // The client's first SYN is dropped; the one it sends a second later gets in.
        server.hold()
        start()
        Thread.sleep(forTimeInterval: 0.3)
        server.release()
        guard server.waitForStreams(streams) else { return nil }
        Thread.sleep(forTimeInterval: 0.5)
        let before = processCPU()
        Thread.sleep(forTimeInterval: Double(window.components.seconds))
        return processCPU() - before
    }

    private static func report(_ name: String, _ cpu: Duration?, baseline: Duration?) {
        guard let cpu else { return print("  \(name): the stream did not open within 30 s") }
        let share = cpu / window * 100
        var line = String(format: "  %@: %.3f s CPU in 10 s = %.2f %% of one core", name, cpu / .seconds(1), share)
        if let baseline {
            let budget = baseline / window * 100 + 2
            line += String(
                format: "  (budget ≤ %.2f %%: the idle process + 2 %%) %@", budget, share <= budget ? "ok" : "OVER")
        }
        print(line)
    }

    /// User + system CPU time of this process, all threads.
    static func processCPU() -> Duration {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let micros =
            (Int64(usage.ru_utime.tv_sec) + Int64(usage.ru_stime.tv_sec)) * 1_000_000 + Int64(usage.ru_utime.tv_usec)
            + Int64(usage.ru_stime.tv_usec)
        return .microseconds(micros)
    }
}

/// The benchmark's server: answers `OPTIONS` with 204, OFREP's bulk evaluation with no flags and one event stream,
/// and holds every other request open as a stream (200, chunked, nothing more), keeping connections alive. While
/// it holds (``hold()``), its listening socket's queue of one is full, so a client's SYN is dropped and its connect
/// takes the second until the SYN is sent again.
final class SlowConnectServer: @unchecked Sendable {
    // @unchecked: `port` and `listener` are set once in init; the rest is behind `state`.
    private struct State {
        var streams = 0
        /// How long a bulk evaluation waits before its answer.
        var bulkDelay: Duration = .zero
        /// Whether requests get no answer at all (not even `OPTIONS`).
        var silent = false
        var stopped = false
        var holding = false
        /// ``hold()`` waits for the accept loop to make the filler.
        var holdRequested = false
        var filler: (fd: Int32, port: UInt16)?
    }

    let port: UInt16
    private let listener: Int32
    private let state = AnnotatedMutex(State())

    init?() {
        // A backlog of 0: the accept queue is full at once, so a connect waits (what the bench measures).
        guard let (fd, port) = Self.listen(backlog: 0) else { return nil }
        listener = fd
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "SlowConnectServer.accept"
        thread.start()
    }

    /// Waits until `count` streams are open (30 s at most).
    @discardableResult
    func waitForStreams(_ count: Int) -> Bool {
        for _ in 0..<3000 {
            if state.withLock({ $0.streams == count }) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// Stops accepting; open connections end with the process.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Fills the listening socket's queue of one with a connection of its own: a client's SYN is dropped until
    /// ``release()``, and sent again by the client a second after the first. The accept loop makes the filler
    /// itself, between two accepts: made here, it could be accepted as a client by an accept already under way, and
    /// the client's connect would then complete at once (or, taken into the queue and never accepted, wait for an
    /// answer that never comes).
    func hold() {
        state.withLock { $0.holdRequested = true }
        for _ in 0..<500 where state.withLock({ $0.holdRequested }) {
            Thread.sleep(forTimeInterval: 0.002)
        }
    }

    /// Connects the filler to the listening socket (on the accept loop's thread), unless the last one is still
    /// waiting there.
    private func makeFiller() {
        let waiting = state.withLock { state -> Bool in
            guard state.filler != nil else { return false }
            state.holding = true
            state.holdRequested = false
            return true
        }
        guard !waiting else { return }
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(filler, $0, &length) }
        }
        state.withLock {
            $0.filler = (filler, local.sin_port)
            $0.holding = true
            $0.holdRequested = false
        }
    }

    /// Makes every later bulk evaluation wait `delay` before its answer.
    func delayBulk(_ delay: Duration) {
        state.withLock { $0.bulkDelay = delay }
    }

    /// Makes every later request, `OPTIONS` too, get no answer (the connection is held until the client closes it).
    func silence(_ silent: Bool) {
        state.withLock { $0.silent = silent }
    }

    /// Lets connections in again (the filler is accepted and closed).
    func release() {
        state.withLock { $0.holding = false }
    }

    private func acceptLoop() {
        while !state.withLock({ $0.stopped }) {
            if state.withLock({ $0.holdRequested }) { makeFiller() }
            var pending = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard state.withLock({ !$0.holding }), poll(&pending, 1, 10) > 0 else {
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            var peer = sockaddr_in()
            var peerLength = socklen_t(MemoryLayout<sockaddr_in>.size)
            let client = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &peerLength) }
            }
            guard client >= 0 else { continue }
            let filler = state.withLock { state -> Int32? in
                guard let filler = state.filler, filler.port == peer.sin_port else { return nil }
                state.filler = nil
                return filler.fd
            }
            if let filler {
                close(client)
                close(filler)
                continue
            }
            let thread = Thread { [self] in serve(client) }
            thread.name = "SlowConnectServer.connection"
            thread.start()
        }
        close(listener)
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var buffer: [UInt8] = []
        while let head = Self.readHead(fd, &buffer) {
            Self.skipBody(fd, head: head, &buffer)
            let requestLine = head.prefix { $0 != "\r" }
            if state.withLock({ $0.silent }) {
                var byte: UInt8 = 0
                while recv(fd, &byte, 1, 0) > 0 {}
                return
            } else if requestLine.hasPrefix("OPTIONS ") {
                guard Self.send(fd, "HTTP/1.1 204 No Content\r\n\r\n") else { return }
            } else if requestLine.hasPrefix("POST /ofrep/v1/evaluate/flags") {
                let delay = state.withLock { $0.bulkDelay }
                if delay > .zero { Thread.sleep(forTimeInterval: delay / .seconds(1)) }
                let body = #"{"flags":[],"eventStreams":[{"type":"sse","endpoint":{"requestUri":"/events"}}]}"#
                let answer =
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"1\"\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                    + body
                guard Self.send(fd, answer) else { return }
            } else {
                let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                guard Self.send(fd, head) else { return }
                state.withLock { $0.streams += 1 }
                var byte: UInt8 = 0
                while recv(fd, &byte, 1, 0) > 0 {}
                state.withLock { $0.streams -= 1 }
                return
            }
        }
    }

    /// A TCP socket listening on 127.0.0.1 at an ephemeral port, with its port; `nil` when the system refuses.
    static func listen(backlog: Int32) -> (descriptor: Int32, port: UInt16)? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && Glibc.listen(fd, backlog) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            return nil
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    static func readHead(_ fd: Int32, _ buffer: inout [UInt8]) -> String? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let end = buffer.firstRange(of: [13, 10, 13, 10])?.upperBound {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end)
                return head
            }
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0, buffer.count < 65536 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Drops the request body: `Content-Length` bytes, or chunks up to the last one.
    static func skipBody(_ fd: Int32, head: String, _ buffer: inout [UInt8]) {
        let lower = head.lowercased()
        var chunk = [UInt8](repeating: 0, count: 4096)
        func fill() -> Bool {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        if lower.contains("transfer-encoding: chunked") {
            while buffer.firstRange(of: Array("0\r\n\r\n".utf8)) == nil { if !fill() { return } }
            if let end = buffer.firstRange(of: Array("0\r\n\r\n".utf8))?.upperBound { buffer.removeFirst(end) }
        } else if let range = lower.range(of: "content-length: ") {
            let length = Int(lower[range.upperBound...].prefix { $0.isNumber }) ?? 0
            while buffer.count < length { if !fill() { return } }
            buffer.removeFirst(length)
        }
    }

    static func send(_ fd: Int32, _ text: String) -> Bool {
        send(fd, bytes: Array(text.utf8))
    }

    /// Writes every byte to a socket (no `SIGPIPE`); `false` when the peer is gone.
    static func send(_ fd: Int32, bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }
}
#else
enum StreamIdleBench {
    static func run() { print("idle-streams: Linux only (FoundationNetworking's sources are what it measures)") }
}
#endif
