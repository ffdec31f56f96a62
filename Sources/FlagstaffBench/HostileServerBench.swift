import Flagstaff
import FlagstaffRemote
import Foundation

#if canImport(Glibc)
import Glibc

/// `flagstaff-bench hostile-servers`: what a hostile server costs the app's remote clients (issue 34, items 1–5):
/// the memory an OFREP client grows by under a flood of `refetchEvaluation` events and under a stream that never
/// ends its line; the memory of a bulk answer far over the 16 MiB limit, chunked and gzip; whether fetches go on
/// beside a bulk answer offering eight streams; the request rate under `429` with `Retry-After: 0`; and the CPU a
/// fetch spends waiting for a slow or hung server on a connection whose connect took a round trip.
///
/// Memory is the growth of the process's resident size over the scenario, sampled every 5 ms (the peak), and what
/// is still held a second after it ends; the server writes its bodies as it goes, so none of it is the server's.
enum HostileServerBench {
    static func run() {
        print("== hostile-servers (the app's remote clients against servers that misbehave on purpose) ==")
        refetchFlood()
        endlessLine()
        oversizedBody(mode: .chunked, "200 MB chunked bulk answer (limit 16 MiB)")
        oversizedBody(mode: .gzipBomb, "1 MB gzip body inflating to 1 GiB (limit 16 MiB)")
        manyStreams()
        rateLimited()
        slowAnswers()
    }

    // MARK: Scenarios

    private static func refetchFlood() {
        guard let server = HostileServer(mode: .refetchFlood) else { return print("  cannot start the server") }
        defer { server.stop() }
        let provider = OFREPProvider(options: OFREPOptions(baseURL: server.baseURL))
        let cpu = StreamIdleBench.processCPU()
        let memory = MemoryWatch()
        provider.start()
        Thread.sleep(forTimeInterval: 10)
        provider.stop()
        let used = StreamIdleBench.processCPU() - cpu
        let (peak, held) = memory.finish()
        print(
            String(
                format: "  refetch flood, 10 s: peak +%.0f MB, held +%.0f MB after, %.1f CPU-s; last error: %@",
                peak, held, used / .seconds(1), provider.lastError ?? "none"))
    }

    private static func endlessLine() {
        guard let server = HostileServer(mode: .endlessLine) else { return print("  cannot start the server") }
        defer { server.stop() }
        let provider = OFREPProvider(options: OFREPOptions(baseURL: server.baseURL))
        let memory = MemoryWatch()
        provider.start()
        // 128 MB written at the loopback's pace, then silence.
        Thread.sleep(forTimeInterval: 8)
        let (peak, held) = memory.finish()
        provider.stop()
        print(
            String(
                format: "  128 MB event line without a line end: peak +%.0f MB, held +%.0f MB; last error: %@", peak,
                held, provider.lastError ?? "none"))
    }

    private static func oversizedBody(mode: HostileServer.Mode, _ name: String) {
        guard let server = HostileServer(mode: mode) else { return print("  cannot start the server") }
        defer { server.stop() }
        let transport = RemoteHTTPTransport(label: "bench", maximumResponseBytes: 16 << 20)
        let memory = MemoryWatch()
        let clock = ContinuousClock()
        let start = clock.now
        let outcome = blocking {
            await transport.send(
                RemoteHTTPRequest(
                    method: "POST", url: server.baseURL.appendingPathComponent("ofrep/v1/evaluate/flags")),
                timeout: .seconds(15))
        }
        let elapsed = clock.now - start
        transport.invalidate()
        let (peak, held) = memory.finish()
        let said: String =
            switch outcome {
            case .success(let response): "status \(response.status), \(response.body.count) bytes"
            case .failure(let error): "\(error)"
            }
        print(
            String(
                format: "  %@: peak +%.0f MB, held +%.0f MB, %.2f s: %@", name, peak, held, elapsed / .seconds(1), said)
        )
    }

    private static func manyStreams() {
        guard let server = HostileServer(mode: .manyStreams) else { return print("  cannot start the server") }
        defer { server.stop() }
        let provider = OFREPProvider(options: OFREPOptions(baseURL: server.baseURL, requestTimeout: .seconds(5)))
        provider.start()
        for _ in 0..<300 where server.streams < 1 { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 1)
        var answered = 0
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<3 {
            blocking { await provider.refresh() }
            if provider.lastError == nil { answered += 1 }
        }
        let elapsed = clock.now - start
        print(
            String(
                format: "  a bulk answer offering 8 streams: %d open, %d of 3 later fetches answered in %.2f s; %@",
                server.streams, answered, elapsed / .seconds(1), provider.lastError ?? "no error"))
        provider.stop()
    }

    private static func rateLimited() {
        guard let server = HostileServer(mode: .rateLimited) else { return print("  cannot start the server") }
        defer { server.stop() }
        let provider = OFREPProvider(options: OFREPOptions(baseURL: server.baseURL))
        provider.start()
        Thread.sleep(forTimeInterval: 5)
        provider.stop()
        print(
            String(
                format: "  429 with Retry-After: 0 for 5 s: %d requests (%.1f per second)", server.requests,
                Double(server.requests) / 5))
    }

    /// The slow-answer rows alone (`flagstaff-bench slow-fetches`).
    static func runSlowFetches() {
        print("== slow-fetches (part of hostile-servers) ==")
        slowAnswers()
    }

    /// A fetch's CPU while it waits: for an answer after 4 s; for a server that answers `OPTIONS` at once and the
    /// fetch never; for a server that answers nothing at all; for a TLS handshake that stalls (`https` to that
    /// server, which never answers the client's hello); and for a host whose connect never completes (its SYNs are
    /// dropped), which shows whether waiting for the connect itself costs anything.
    private static func slowAnswers() {
        guard let server = SlowConnectServer() else { return print("  cannot start the slow-connect server") }
        defer { server.stop() }
        let path = "127.0.0.1:\(server.port)/ofrep/v1/evaluate/flags"
        let rows: [(scheme: String, delay: Duration, silent: Bool, connects: Bool, timeout: Duration, name: String)] = [
            ("http", .seconds(4), false, true, .seconds(15), "an answer after 4 s"),
            ("http", .seconds(60), false, true, .seconds(15), "a hung server (timeout 15 s)"),
            (
                "http", .seconds(60), true, true, .seconds(15),
                "a server that answers nothing, not even OPTIONS (timeout 15 s)"
            ),
            ("https", .zero, true, true, .seconds(15), "a TLS handshake the server never answers (timeout 15 s)"),
            ("http", .zero, false, false, .seconds(5), "a host whose connect never completes (timeout 5 s)"),
        ]
        for row in rows {
            let url = URL(string: "\(row.scheme)://\(path)") ?? URL(fileURLWithPath: "/")
            server.delayBulk(row.delay)
            server.silence(row.silent)
            let transport = RemoteHTTPTransport(label: "bench", maximumResponseBytes: 1 << 20)
            server.hold()
            let cpu = StreamIdleBench.processCPU()
            let clock = ContinuousClock()
            let start = clock.now
            let outcome = blocking {
                async let answer = transport.send(
                    RemoteHTTPRequest(method: "POST", url: url, body: Data("{}".utf8)), timeout: row.timeout)
                try? await Task.sleep(for: .milliseconds(300))
                if row.connects { server.release() }
                return await answer
            }
            let used = StreamIdleBench.processCPU() - cpu
            let elapsed = clock.now - start
            transport.invalidate()
            server.release()
            server.silence(false)
            let said: String =
                switch outcome {
                case .success(let response): "status \(response.status)"
                case .failure(let error): "\(error)"
                }
            print(
                String(
                    format: "  fetch, connect after a round trip, %@: %.2f CPU-s in %.2f s (%@)", row.name,
                    used / .seconds(1), elapsed / .seconds(1), said))
        }
    }

    // MARK: Helpers

    /// Runs `work` on the cooperative pool and waits for it.
    private static func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = AnnotatedMutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }!
    }

    /// The process's resident size in MB (`VmRSS`).
    static func residentMB() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
    }

    /// Samples the resident size every 5 ms until ``finish()``: the peak growth, and the growth still held a
    /// second after.
    private final class MemoryWatch: Sendable {
        private let start = HostileServerBench.residentMB()
        private let state = AnnotatedMutex((peak: 0.0, done: false))

        init() {
            let thread = Thread { [self] in
                while !state.withLock({ $0.done }) {
                    let now = HostileServerBench.residentMB()
                    state.withLock { $0.peak = max($0.peak, now) }
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            thread.start()
        }

        func finish() -> (peak: Double, held: Double) {
            Thread.sleep(forTimeInterval: 1)
            let peak = state.withLock { state -> Double in
                state.done = true
                return state.peak
            }
            return (max(0, peak - start), max(0, HostileServerBench.residentMB() - start))
        }
    }
}

/// The benchmark's hostile server on 127.0.0.1: one behaviour per server, written as it goes (never held whole).
final class HostileServer: @unchecked Sendable {
    // @unchecked: `port`, `listener` and `mode` are set once in init; the rest is behind `state`.
    enum Mode {
        /// Bulk answers offer one stream, which sends valid `refetchEvaluation` events as fast as it can for 30 s.
        case refetchFlood
        /// Bulk answers offer one stream, which sends 128 MB of one event line without a line end.
        case endlessLine
        /// Every request is answered 200 with a 200 MB chunked body.
        case chunked
        /// Every request is answered 200 with a 1 MB gzip body that inflates to 1 GiB.
        case gzipBomb
        /// Bulk answers offer eight streams; each is held open.
        case manyStreams
        /// Every request is answered 429 with `Retry-After: 0`.
        case rateLimited
    }

    private struct State {
        var requests = 0
        var streams = 0
        var stopped = false
    }

    let port: UInt16
    private let listener: Int32
    private let mode: Mode
    private let bomb: [UInt8]
    private let state = AnnotatedMutex(State())

    init?(mode: Mode) {
        self.mode = mode
        bomb = mode == .gzipBomb ? Self.gzipOfZeros(megabytes: 1024) : []
        guard let (fd, port) = SlowConnectServer.listen(backlog: 64) else { return nil }
        listener = fd
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/") }
    var requests: Int { state.withLock { $0.requests } }
    var streams: Int { state.withLock { $0.streams } }

    func stop() {
        state.withLock { $0.stopped = true }
    }

    private var stopped: Bool { state.withLock { $0.stopped } }

    private func acceptLoop() {
        while !stopped {
            var pending = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pending, 1, 10) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
        close(listener)
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var buffer: [UInt8] = []
        while !stopped, let head = SlowConnectServer.readHead(fd, &buffer) {
            SlowConnectServer.skipBody(fd, head: head, &buffer)
            state.withLock { $0.requests += 1 }
            let line = head.prefix { $0 != "\r" }
            if line.hasPrefix("OPTIONS ") {
                guard SlowConnectServer.send(fd, "HTTP/1.1 204 No Content\r\n\r\n") else { return }
                continue
            }
            if line.hasPrefix("GET /events") {
                return stream(fd)
            }
            switch mode {
            case .refetchFlood, .endlessLine:
                guard answer(fd, #"{"type":"sse","endpoint":{"requestUri":"/events"}}"#) else { return }
            case .manyStreams:
                let offered = (0..<8).map { #"{"type":"sse","endpoint":{"requestUri":"/events?n=\#($0)"}}"# }
                guard answer(fd, offered.joined(separator: ",")) else { return }
            case .rateLimited:
                guard
                    SlowConnectServer.send(
                        fd, "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 0\r\nContent-Length: 0\r\n\r\n")
                else { return }
            case .chunked:
                guard
                    SlowConnectServer.send(
                        fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                else { return }
                let piece = Array("10000\r\n".utf8) + [UInt8](repeating: 32, count: 1 << 16) + [13, 10]
                for _ in 0..<(200 * 16) where !write(fd, piece) { return }
                _ = SlowConnectServer.send(fd, "0\r\n\r\n")
                return
            case .gzipBomb:
                let head =
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n"
                guard SlowConnectServer.send(fd, head), write(fd, bomb) else { return }
            }
        }
    }

    /// A bulk answer with one flag and `streams`.
    private func answer(_ fd: Int32, _ streams: String) -> Bool {
        let body = #"{"flags":[{"key":"n","value":1}],"eventStreams":[\#(streams)]}"#
        return SlowConnectServer.send(
            fd,
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"v1\"\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                + body)
    }

    private func stream(_ fd: Int32) {
        state.withLock { $0.streams += 1 }
        defer { state.withLock { $0.streams -= 1 } }
        guard
            SlowConnectServer.send(
                fd, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
        else { return }
        func chunk(_ bytes: [UInt8]) -> [UInt8] {
            Array(String(bytes.count, radix: 16).utf8) + [13, 10] + bytes + [13, 10]
        }
        switch mode {
        case .refetchFlood:
            let event = #"data: {"type":"refetchEvaluation","etag":"\"v2\"","lastModified":1771622898}"# + "\n\n"
            let piece = chunk(Array(String(repeating: event, count: 800).utf8))
            let end = ContinuousClock().now + .seconds(30)
            while !stopped, ContinuousClock().now < end, write(fd, piece) {}
        case .endlessLine:
            guard write(fd, chunk(Array("data: ".utf8))) else { return }
            let piece = chunk([UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16))
            for _ in 0..<(128 * 16) where !write(fd, piece) { return }
            var byte: UInt8 = 0
            while !stopped, recv(fd, &byte, 1, 0) > 0 {}
        default:
            var byte: UInt8 = 0
            while !stopped, recv(fd, &byte, 1, 0) > 0 {}
        }
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        SlowConnectServer.send(fd, bytes: bytes)
    }

    /// A gzip member of `megabytes` MiB of zero bytes, made by the system's `gzip`.
    private static func gzipOfZeros(megabytes: Int) -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "head -c \(megabytes << 20) /dev/zero | gzip -9"]
        let output = Pipe()
        process.standardOutput = output
        guard (try? process.run()) != nil else { return [] }
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Array(bytes)
    }
}
#else
enum HostileServerBench {
    static func run() { print("hostile-servers: Linux only (FoundationNetworking is what it measures)") }
}
#endif
