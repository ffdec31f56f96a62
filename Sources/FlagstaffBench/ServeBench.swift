// `flagstaff serve` exists only with the Server trait (on by default; see Package.swift).
#if Server
import Flagstaff
import FlagstaffServer
import FlagstaffTerminalDriver
import Foundation
import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flagstaff serve` under load, in process, with its own load generator: keep-alive connections on 127.0.0.1,
/// one blocking thread each, sending the next request as soon as the previous answer is read.
///
/// Cases: `GET /api/frontend` answered 304 (If-None-Match) for 1,000 flags over 50 connections; bulk OFREP for
/// 1,000 flags over 50 connections and over 1; resident memory with 100,000 flags after one request of each
/// body. Requests/s, p50 and p99 latency. The load generator shares the machine's cores with the server.
enum ServeBench {
    static func run() {
        print("== serve (in-process server, 127.0.0.1, own keep-alive load generator) ==")
        print(String(format: "load average before: %@", loadAverage()))
        let registry: AnyFeatureRegistry
        let manifest = BenchManifest.make(flagCount: 1_000)
        do {
            registry = try AnyFeatureRegistry(manifest: manifest)
        } catch {
            print("serve: cannot build the registry: \(error)")
            return
        }
        let snapshot = ServedSnapshot(registry: registry)
        print(
            "  bodies for 1,000 flags: frontend \(UnleashBodies.frontend(snapshot).count / 1024) KB, client features "
                + "\(UnleashBodies.clientFeatures(snapshot).count / 1024) KB, bulk OFREP \(OFREPBodies.bulk(snapshot).count / 1024) KB "
                + "(gzip: \((Gzip.compress(OFREPBodies.bulk(snapshot))?.count ?? 0) / 1024) KB)"
        )
        // The router's 304 (the path every poll took before the early answer), beside the early one below.
        withServer(registry, answersPollsEarly: false) { _, port in
            guard let etag = etagOf(port: port, path: "/api/frontend") else { return print("serve: no ETag") }
            let notModified = "GET /api/frontend HTTP/1.1\r\nHost: b\r\nIf-None-Match: \(etag)\r\n\r\n"
            report(
                "GET /api/frontend → 304 by the router (early answers off), 50 connections",
                load(port, notModified, 50, 3))
            ServeNginxBench.reportWrk("the same by the router", port: port, header: "If-None-Match: \(etag)")
        }
        withServer(registry) { server, port in
            guard let etag = etagOf(port: port, path: "/api/frontend") else {
                print("serve: no ETag from /api/frontend")
                return
            }
            let notModified = "GET /api/frontend HTTP/1.1\r\nHost: b\r\nIf-None-Match: \(etag)\r\n\r\n"
            report("GET /api/frontend → 304, 1,000 flags, 50 connections", load(port, notModified, 50, 3))
            ServeNginxBench.reportWrk("the same answered early", port: port, header: "If-None-Match: \(etag)")
            let bulk =
                "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
            report("POST bulk OFREP → 200, 1,000 flags, 50 connections", load(port, bulk, 50, 3))
            let zipped = bulk.replacingOccurrences(of: "Host: b\r\n", with: "Host: b\r\nAccept-Encoding: gzip\r\n")
            report("POST bulk OFREP → 200 gzip, 1,000 flags, 50 connections", load(port, zipped, 50, 3))
            report("POST bulk OFREP → 200, 1,000 flags, 1 connection", load(port, bulk, 1, 3))
            print(
                String(
                    format: "  of the 304s above and below, answered on the event loop (before the router): %d",
                    server.earlyNotModified.value))
            keyPress(port: port, registry: registry, manifest: manifest)
            streams(port: port, registry: registry, notModified: notModified)
        }
        separateProcesses()
        print(String(format: "load average after: %@", loadAverage()))
    }

    /// Only the two rows of the Swift link client (`flagstaff-bench serve-link`): a key press in the serving
    /// process, and `flagstaff set` in another one (when the release `flagstaff` is built).
    static func runLink() {
        print("== serve-link (key press and flagstaff set → Swift link client, 1,000 flags, 127.0.0.1) ==")
        print(String(format: "load average before: %@", loadAverage()))
        let manifest = BenchManifest.make(flagCount: 1_000)
        guard let registry = try? AnyFeatureRegistry(manifest: manifest) else {
            return print("serve-link: cannot build the registry")
        }
        withServer(registry) { _, port in keyPress(port: port, registry: registry, manifest: manifest) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-link-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        if let executable = releaseFlagstaff() {
            setInAnotherProcess(executable, scratch: scratch)
        } else {
            print(
                "  flagstaff set → link client: not measured (build it first: swift build -c release --product flagstaff)"
            )
        }
        print(String(format: "load average after: %@", loadAverage()))
    }

    /// Key press (a change of the registry served) → the Swift link client's registry, 100 changes.
    private static func keyPress(port: Int, registry: AnyFeatureRegistry, manifest: RegistryManifest) {
        let key = registry.allFeatures.first { $0.settingType == .boolean }?.key ?? ""
        let keyPress = ServeStreamBench.linkLatencies(port: port, manifest: manifest, key: key, changes: 101) {
            try? registry.setOverrideValues([key: .set($0 % 2 == 0 ? .on : .off)])
        }
        reportLatencies(
            "key press (a change in the serving process, as console --serve makes it) → Swift link client's registry",
            keyPress, budget: "p50 ≤ 10 ms, p99 ≤ 50 ms")
    }

    /// `flagstaff set` in another process → the Swift link client's registry, 30 changes.
    private static func setInAnotherProcess(_ executable: URL, scratch: URL) {
        reportLatencies(
            "flagstaff set in another process (from its start) → Swift link client's registry",
            ServeStreamBench.setInAnotherProcess(
                executable, scratch: scratch.appendingPathComponent("set"), changes: 31),
            budget: "p99 ≤ 100 ms")
    }

    /// The release `flagstaff` beside this benchmark, if it is built.
    private static func releaseFlagstaff() -> URL? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = directory.appendingPathComponent("flagstaff")
        return FileManager.default.isExecutableFile(atPath: executable.path) ? executable : nil
    }

    /// Resident memory of the `flagstaff serve` process (the release build beside this benchmark) serving a
    /// 100,000-flag manifest: after start, and after each body has been requested (the budget's reading). Then the
    /// same process kind side by side with nginx (``ServeNginxBench``).
    private static func separateProcesses() {
        guard let executable = releaseFlagstaff() else {
            return print(
                "  RSS of flagstaff serve and the nginx side by side: not measured (build it first: swift build -c release --product flagstaff)"
            )
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-serve-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        ServeNginxBench.run(flagstaff: executable, scratch: scratch)
        setInAnotherProcess(executable, scratch: scratch)
        ServePythonBench.run(flagstaff: executable, scratch: scratch)
        guard let manifest = try? BenchManifest.writeTemporaryFile(flagCount: 100_000) else {
            return print("  RSS of flagstaff serve: cannot write the manifest")
        }
        defer { try? FileManager.default.removeItem(atPath: manifest) }
        guard
            let launched = launchServe(
                executable, arguments: ["--manifest", manifest], scratch: scratch.appendingPathComponent("memory"))
        else { return print("  RSS of flagstaff serve: it did not start") }
        defer { stop(launched.process) }
        func rss() -> Double {
            guard
                let status = try? String(
                    contentsOfFile: "/proc/\(launched.process.processIdentifier)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
            else { return .nan }
            return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
        }
        let started = rss()
        for request in [
            "GET /api/frontend HTTP/1.1\r\nHost: b\r\n\r\n", "GET /api/client/features HTTP/1.1\r\nHost: b\r\n\r\n",
            "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: b\r\nContent-Length: 0\r\n\r\n",
        ] {
            _ = load(launched.port, request, 1, 0, requests: 3)
        }
        print(
            String(
                format:
                    "  RSS of the flagstaff serve process, 100,000 flags: %.1f MB after start, %.1f MB with every body served three times   [budget 100 MB]",
                started, rss()))
    }

    /// `flagstaff serve ARGUMENTS --store SCRATCH/store.json --port 0` in the background, and the port it reports.
    static func launchServe(_ executable: URL, arguments: [String], scratch: URL) -> (process: Process, port: Int)? {
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let errors = scratch.appendingPathComponent("serve.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments =
            ["serve"] + arguments + (arguments.contains("--manifest") ? [] : ["--demo"])
            + ["--store", scratch.appendingPathComponent("store.json").path, "--port", "0"]
        process.standardError = try? FileHandle(forWritingTo: errors)
        do { try process.run() } catch { return nil }
        for _ in 0..<300 {
            let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            if let range = text.range(of: "on http://127.0.0.1:"),
                let port = Int(text[range.upperBound...].prefix { $0.isNumber })
            {
                return (process, port)
            }
            usleep(100_000)
        }
        stop(process)
        return nil
    }

    /// Stops a process `launchServe` started and waits for it.
    static func stop(_ process: Process) {
        process.terminate()
        process.waitUntilExit()
    }

    /// 1,000 Unleash streams open: each change's event at every subscriber, memory, and the 304 rate beside them.
    private static func streams(port: Int, registry: AnyFeatureRegistry, notModified: String) {
        var polling: Result?
        let (opened, latencies, before, after) = ServeStreamBench.run(
            port: port, registry: registry, streams: 1_000, changes: 5
        ) { polling = load(port, notModified, 50, 3) }
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
        }
        print(
            String(
                format:
                    "  1,000 Unleash streams: %d opened; change → unleash-updated at every subscriber: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d events)   [budget p99 ≤ 250 ms]",
                opened, percentile(0.5), percentile(0.99), sorted.last.map { $0 * 1000 } ?? .nan, sorted.count))
        print(
            String(
                format:
                    "  resident memory of this process: %.1f MB before the streams, %.1f MB with them (+%.1f MB)   [budget +50 MB]",
                before, after, after - before))
        if let polling { report("GET /api/frontend → 304, 1,000 flags, 50 connections, 1,000 streams open", polling) }
    }

    // MARK: Server

    /// Runs the server on the concurrency pool and `body` on the calling thread (a load generator that blocks
    /// must not hold one of the pool's few threads, which the server's handlers run on).
    private static func withServer(
        _ registry: AnyFeatureRegistry, answersPollsEarly: Bool = true, _ body: (FlagServer, Int) -> Void
    ) {
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        var configuration = FlagServerConfiguration(port: 0)
        configuration.answersPollsEarly = answersPollsEarly
        let server = FlagServer(registry: registry, configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let group = server.makeServiceGroup { continuation.yield($0) }
        let stopped = DispatchSemaphore(value: 0)
        Task.detached {
            try? await group.run()
            continuation.finish()
            stopped.signal()
        }
        let port = AnnotatedMutex<Int?>(nil)
        let started = DispatchSemaphore(value: 0)
        Task.detached {
            var iterator = ports.makeAsyncIterator()
            let first = await iterator.next()
            port.withLock { $0 = first }
            started.signal()
        }
        started.wait()
        if let bound = port.withLock({ $0 }) { body(server, bound) }
        Task.detached { await group.triggerGracefulShutdown() }
        stopped.wait()
    }

    // MARK: Load

    private struct Result {
        var requests: Int
        var seconds: Double
        var latencies: [Double]
        var failures: Int
    }

    /// p50, p99 and max of `latencies` (seconds) in milliseconds, with the budget.
    static func reportLatencies(_ label: String, _ latencies: [Double], budget: String) {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return print("  \(label): not measured") }
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000 }
        print(
            String(
                format: "  %@: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%d changes)   [budget %@]", label,
                percentile(0.5),
                percentile(0.99), (sorted.last ?? .nan) * 1000, sorted.count, budget))
    }

    private static func report(_ label: String, _ result: Result) {
        let sorted = result.latencies.sorted()
        func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] * 1000
        }
        print(
            String(
                format: "  %@: %.0f req/s, p50 %.2f ms, p99 %.2f ms (%d requests, %d failed)", label,
                Double(result.requests) / result.seconds, percentile(0.5), percentile(0.99), result.requests,
                result.failures))
    }

    /// `connections` threads send `request` back to back for `seconds` (or `requests` times each).
    private static func load(
        _ port: Int, _ request: String, _ connections: Int, _ seconds: Double, requests: Int = .max
    ) -> Result {
        let results = AnnotatedMutex(Result(requests: 0, seconds: 0, latencies: [], failures: 0))
        let start = Date()
        let worker: @Sendable () -> Void = {
            var latencies: [Double] = []
            var failures = 0
            if let socket = connectLoopback(port) {
                let bytes = Array(request.utf8)
                var buffer = [UInt8](repeating: 0, count: 1 << 16)
                var sent = 0
                while sent < requests && (seconds == 0 || Date().timeIntervalSince(start) < seconds) {
                    let begin = DispatchTime.now().uptimeNanoseconds
                    guard write(socket, bytes), readResponse(socket, &buffer) else {
                        failures += 1
                        break
                    }
                    latencies.append(Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9)
                    sent += 1
                }
                close(socket)
            } else {
                failures += 1
            }
            results.withLock {
                $0.requests += latencies.count
                $0.latencies += latencies
                $0.failures += failures
            }
        }
        let finished = DispatchGroup()
        for _ in 0..<connections {
            finished.enter()
            Thread.detachNewThread {
                worker()
                finished.leave()
            }
        }
        finished.wait()
        var result = results.withLock { $0 }
        result.seconds = Date().timeIntervalSince(start)
        return result
    }

    private static func connectLoopback(_ port: Int) -> Int32? {
        LoopbackSocket.connect(port: port, noDelay: true)
    }

    private static func write(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// Reads one response: headers, then `Content-Length` bytes of body, or chunks up to the last, empty one
    /// (large snapshots are sent chunked; the bodies are JSON, which has no raw line feeds). Like `wrk`, it keeps
    /// the headers and only counts the body.
    private static func readResponse(_ socket: Int32, _ buffer: inout [UInt8]) -> Bool {
        var head: [UInt8] = []
        var remaining: Int?  // body bytes still to come (`Content-Length`)
        var chunked = false
        var tail: [UInt8] = []  // the last bytes of a chunked body
        let lastChunk = Array("\r\n0\r\n\r\n".utf8)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            var body = buffer[0..<count]
            if remaining == nil, !chunked {
                head.append(contentsOf: body)
                guard let end = headerEnd(head) else { continue }
                // Header lines split on LF as bytes (in a Swift string, "\r\n" is one character, so a search for
                // "\r" alone never ends a line).
                var length = 0
                for line in head[0..<end].split(separator: 0x0A) {
                    let text = String(decoding: line, as: UTF8.self).lowercased()
                        .trimmingCharacters(in: .whitespacesAndNewlines)
                    if text == "transfer-encoding: chunked" { chunked = true }
                    if text.hasPrefix("content-length:") {
                        length = Int(text.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
                let bodyStart = end + 4 - (head.count - count)
                body = buffer[bodyStart..<count]
                if !chunked { remaining = length }
            }
            if chunked {
                tail = Array((tail + body).suffix(lastChunk.count))
                if tail == lastChunk { return true }
            } else if let left = remaining {
                remaining = left - body.count
                if left - body.count <= 0 { return true }
            }
        }
    }

    private static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func etagOf(port: Int, path: String) -> String? {
        guard let socket = connectLoopback(port) else { return nil }
        defer { close(socket) }
        guard write(socket, Array("GET \(path) HTTP/1.1\r\nHost: b\r\n\r\n".utf8)) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var received: [UInt8] = []
        while headerEnd(received) == nil {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return nil }
            received.append(contentsOf: buffer[0..<count])
        }
        let head = String(decoding: received, as: UTF8.self)
        guard let range = head.range(of: "ETag: ", options: .caseInsensitive) else { return nil }
        // By scalars: in a Swift string "\r\n" is one character, never equal to "\r".
        return String(String.UnicodeScalarView(head[range.upperBound...].unicodeScalars.prefix { $0 != "\r" }))
    }

    private static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "?"
    }
}
#endif
