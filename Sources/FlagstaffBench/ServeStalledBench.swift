// `flagstaff serve` exists only with the Server trait (on by default; see Package.swift).
#if Server && canImport(Glibc)
import Flagstaff
import Foundation
import Glibc

/// `flagstaff-bench serve-stalled`: the release `flagstaff serve`, as its own process, under clients that stop
/// reading or ask too much (issue 34, items 7–10), read from `/proc`: its resident memory, its CPU-seconds, its open
/// descriptors, and a good client's latency beside the bad ones.
///
/// - stalled readers: 1,000 connections ask for `/api/client/features` of 30,000 flags and never read; for 40 s, a
///   good client's bulk OFREP every second; how many of the stalled connections the server still holds after 20 and
///   40 s.
/// - stalled streams: 1,000 `/api/client/streaming` streams of 10,000 flags that never read, then 4 changes that
///   touch every member (`flagstaff import`); then 1,000 streams that read, and the CPU-seconds of one such change.
/// - open files: the server started with a soft limit of 1,024 descriptors (then the hard one too) and the default
///   stream limit, 1,000 streams asked for (those refused go away), then 30 keep-alive pollers at once: how many are
///   answered within 5 s, and what the log says.
/// - long names: 1,000 register calls with a 60 KB `appName`: the bytes written to standard error, and the time.
///
/// `FLAGSTAFF_BENCH_FLAGSTAFF=/a/flagstaff:/b/flagstaff` runs each case with each executable in turn (a build
/// before a change beside one after it, in the same run); by default, the release `flagstaff` beside this benchmark.
/// Loopback only; each stalled client asks for a small receive buffer (16 KB), so the kernel holds little for it.
enum ServeStalledBench {
    static func run() {
        print("== serve-stalled (flagstaff serve as its own process under stalled and greedy clients, 127.0.0.1) ==")
        print("load average before: \(loadAverage())")
        let executables = executablesToCompare()
        guard !executables.isEmpty else {
            return print(
                "serve-stalled: build the release flagstaff first (swift build -c release --product flagstaff)")
        }
        raiseOwnLimit()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-stalled-\(getpid())")
        defer { try? FileManager.default.removeItem(at: scratch) }
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        for executable in executables { stalledReaders(executable, scratch: scratch) }
        for executable in executables { stalledStreams(executable, scratch: scratch) }
        for executable in executables { openFiles(executable, scratch: scratch) }
        for executable in executables { longNames(executable, scratch: scratch) }
        print("load average after: \(loadAverage())")
    }

    // MARK: - The cases

    private static func stalledReaders(_ executable: URL, scratch: URL) {
        print("  [\(executable.path)] stalled readers: 30,000 flags, 1,000 never-reading GET /api/client/features")
        guard let manifest = manifest(flags: 30_000, scratch: scratch),
            let server = Served(
                executable, ["--manifest", manifest], scratch: scratch.appendingPathComponent("readers"))
        else { return print("    the server did not start") }
        defer { server.stop() }
        let bulk = "POST /ofrep/v1/evaluate/flags HTTP/1.1\r\nHost: b\r\nContent-Length: 2\r\n\r\n{}"
        let alone = (0..<10).compactMap { _ in timedRequest(server.port, bulk) }
        let startRSS = server.rss
        let startCPU = server.cpuSeconds
        let startFiles = server.openFiles
        let stalled = (0..<1_000).compactMap { _ in
            stalledConnection(server.port, "GET /api/client/features HTTP/1.1\r\nHost: b\r\n\r\n")
        }
        defer { for socket in stalled { close(socket) } }
        var beside: [Double] = []
        var peak = startRSS
        var heldAt20 = 0
        let start = Date()
        while Date().timeIntervalSince(start) < 40 {
            if let latency = timedRequest(server.port, bulk, timeout: 20) { beside.append(latency) }
            peak = max(peak, server.rss)
            if heldAt20 == 0, Date().timeIntervalSince(start) >= 20 { heldAt20 = server.openFiles - startFiles }
            usleep(1_000_000)
        }
        print(
            String(
                format:
                    "    good client's bulk OFREP alone: median %.0f ms; beside %d stalled: median %.0f ms, max %.0f ms (%d answered in 40 s)",
                median(alone) * 1000, stalled.count, median(beside) * 1000, (beside.max() ?? .nan) * 1000,
                beside.count))
        print(
            String(
                format:
                    "    RSS %.0f MB → peak %.0f MB (+%.0f MB), %.0f MB after 40 s; CPU-seconds in the 40 s: %.1f; connections held after 20 s: %d, after 40 s: %d of %d",
                startRSS, peak, peak - startRSS, server.rss, server.cpuSeconds - startCPU, heldAt20,
                server.openFiles - startFiles, stalled.count))
    }

    private static func stalledStreams(_ executable: URL, scratch: URL) {
        print("  [\(executable.path)] streams: 10,000 flags, changes touching every member (flagstaff import)")
        let folder = scratch.appendingPathComponent("streams")
        guard let manifest = manifest(flags: 10_000, scratch: scratch),
            let server = Served(executable, ["--manifest", manifest], scratch: folder)
        else { return print("    the server did not start") }
        defer { server.stop() }
        let keys = BenchManifest.make(flagCount: 10_000).groups.flatMap { $0.flags.map(\.key) }
        var imports: [URL] = []
        for value in ["on", "off"] {
            let file = folder.appendingPathComponent("all-\(value).json")
            let overrides = Dictionary(uniqueKeysWithValues: keys.map { ($0, value) })
            let data = try? JSONSerialization.data(withJSONObject: ["version": 1, "overrides": overrides])
            _ = FileManager.default.createFile(atPath: file.path, contents: data)
            imports.append(file)
        }
        func change(_ index: Int) {
            let process = Process()
            process.executableURL = executable
            process.arguments = [
                "import", imports[index % 2].path, "--manifest", manifest, "--store", server.store.path,
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try? process.run()
            process.waitUntilExit()
        }
        let stream = "GET /api/client/streaming HTTP/1.1\r\nHost: b\r\nunleash-appname: bench\r\n\r\n"
        let startRSS = server.rss
        do {
            let stalled = (0..<1_000).compactMap { _ in stalledConnection(server.port, stream) }
            defer { for socket in stalled { close(socket) } }
            usleep(2_000_000)
            var peak = server.rss
            let startCPU = server.cpuSeconds
            for index in 0..<4 {
                change(index)
                for _ in 0..<20 {
                    peak = max(peak, server.rss)
                    usleep(100_000)
                }
            }
            print(
                String(
                    format:
                        "    %d stalled streams, 4 changes: RSS %.0f MB → peak %.0f MB (+%.0f MB), %.1f CPU-seconds",
                    stalled.count, startRSS, peak, peak - startRSS, server.cpuSeconds - startCPU))
        }
        usleep(2_000_000)
        // 1,000 streams that read: the CPU-seconds from a change until every stream has its event.
        var readers = (0..<1_000).compactMap { _ in LoopbackReader(port: server.port, request: stream) }
        defer { for reader in readers { close(reader.socket) } }
        LoopbackReader.pump(&readers, timeout: 120) { $0.count(of: "event: unleash-connected") >= 1 }
        LoopbackReader.drain(&readers)
        let before = server.cpuSeconds
        let start = Date()
        change(4)
        LoopbackReader.pump(&readers, timeout: 120) { $0.count(of: "event: unleash-updated") >= 1 }
        let all = readers.filter { $0.count(of: "event: unleash-updated") >= 1 }.count
        print(
            String(
                format: "    1,000 reading streams, one change: %.1f CPU-seconds, %.1f s until %d of %d had it",
                server.cpuSeconds - before, Date().timeIntervalSince(start), all, readers.count))
    }

    private static func openFiles(_ executable: URL, scratch: URL) {
        for (limit, label) in [("-Sn 1024", "soft limit 1,024, hard unchanged"), ("-n 1024", "soft and hard 1,024")] {
            print("  [\(executable.path)] open files: ulimit \(limit) (\(label)), default --max-streams, 1,000 streams")
            let folder = scratch.appendingPathComponent("files")
            guard let server = Served(executable, [], scratch: folder, ulimit: limit) else {
                print("    the server did not start")
                continue
            }
            defer { server.stop() }
            var streams: [Int32] = []
            for _ in 0..<1_000 {
                guard let socket = LoopbackSocket(port: server.port) else { break }
                _ = socket.send("GET /ofrep/v1/events HTTP/1.1\r\nHost: b\r\n\r\n")
                streams.append(socket.fd)
            }
            defer { for socket in streams { close(socket) } }
            usleep(3_000_000)
            // A client refused (503) goes away, as an SDK does until it retries.
            var refused = 0
            for socket in streams {
                var head = [UInt8](repeating: 0, count: 64)
                let count = recv(socket, &head, head.count, Int32(MSG_DONTWAIT))
                if count > 12, String(decoding: head[0..<12], as: UTF8.self) == "HTTP/1.1 503" {
                    refused += 1
                    shutdown(socket, Int32(SHUT_RDWR))
                }
            }
            usleep(1_000_000)
            let held = server.openFiles
            // 30 pollers at once, each keeping its connection (keep-alive) until every one is done, as SDKs do.
            let answered = Counter()
            let group = DispatchGroup()
            let port = server.port
            let pollers = (0..<30).map { _ in LoopbackSocket(port: port, receiveTimeout: 5) }
            for poller in pollers {
                DispatchQueue.global().async(group: group) {
                    guard let poller, poller.send("GET /api/frontend HTTP/1.1\r\nHost: b\r\n\r\n") else { return }
                    var buffer = [UInt8](repeating: 0, count: 1 << 16)
                    let count = buffer.withUnsafeMutableBytes { recv(poller.fd, $0.baseAddress, $0.count, 0) }
                    if count > 12, String(decoding: buffer[0..<12], as: UTF8.self) == "HTTP/1.1 200" { answered.add() }
                }
            }
            group.wait()
            for poller in pollers { if let poller { close(poller.fd) } }
            let lines = server.standardError.split(separator: "\n").filter {
                $0.contains("EMFILE") || $0.contains("lowered")
            }
            print(
                "    streams refused (503): \(refused); server descriptors open: \(held); pollers answered within 5 s: \(answered.value) of 30"
            )
            for line in lines.prefix(2) { print("    log: \(line.prefix(200))") }
            if lines.isEmpty { print("    log: nothing about descriptors") }
        }
    }

    private static func longNames(_ executable: URL, scratch: URL) {
        print("  [\(executable.path)] long names: 1,000 register calls, appName of 60 KB")
        guard let server = Served(executable, [], scratch: scratch.appendingPathComponent("names")) else {
            return print("    the server did not start")
        }
        defer { server.stop() }
        let before = server.standardErrorBytes
        let start = Date()
        let cpu = server.cpuSeconds
        for index in 0..<1_000 {
            let body = #"{"appName":"\#(index)-\#(String(repeating: "n", count: 60 << 10))"}"#
            let request =
                "POST /api/client/register HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            _ = timedRequest(server.port, request, timeout: 10)
        }
        let seconds = Date().timeIntervalSince(start)
        print(
            String(
                format: "    %.1f MB of log in %.1f s, %.1f CPU-seconds of the server; RSS after: %.0f MB",
                Double(server.standardErrorBytes - before) / 1e6, seconds, server.cpuSeconds - cpu, server.rss))
    }

    // MARK: - The server process

    /// A `flagstaff serve` process started for one case.
    private final class Served {
        let process: Process
        let port: Int
        let errors: URL
        let store: URL

        init?(_ executable: URL, _ arguments: [String], scratch: URL, ulimit: String? = nil) {
            try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            errors = scratch.appendingPathComponent("serve.err")
            store = scratch.appendingPathComponent("store.json")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let process = Process()
            let serve =
                [executable.path, "serve"] + arguments + (arguments.contains("--manifest") ? [] : ["--demo"])
                + ["--store", store.path, "--port", "0"]
            if let ulimit {
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "ulimit \(ulimit) && exec \"$@\"", "sh"] + serve
            } else {
                process.executableURL = executable
                process.arguments = Array(serve.dropFirst())
            }
            process.standardError = try? FileHandle(forWritingTo: errors)
            do { try process.run() } catch { return nil }
            self.process = process
            for _ in 0..<600 {
                let text = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                if let range = text.range(of: "on http://127.0.0.1:"),
                    let port = Int(text[range.upperBound...].prefix { $0.isNumber })
                {
                    self.port = port
                    return
                }
                usleep(100_000)
            }
            process.terminate()
            process.waitUntilExit()
            return nil
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }

        private var pid: Int32 { process.processIdentifier }

        /// Resident memory in MB.
        var rss: Double {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
            else { return .nan }
            return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
        }

        /// User and system CPU time so far.
        var cpuSeconds: Double {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return .nan }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // After the command: state is field 3; utime and stime are fields 14 and 15.
            let user = Double(fields[11]) ?? .nan
            let system = Double(fields[12]) ?? .nan
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        /// How many descriptors it has open.
        var openFiles: Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
        }

        var standardError: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
        var standardErrorBytes: Int {
            ((try? FileManager.default.attributesOfItem(atPath: errors.path))?[.size] as? Int) ?? 0
        }
    }

    // MARK: - Clients

    /// A connected loopback socket.
    private struct LoopbackSocket {
        let fd: Int32

        /// Connects to 127.0.0.1:`port`, with a receive buffer of `receiveBuffer` bytes when given.
        init?(port: Int, receiveBuffer: Int32? = nil, receiveTimeout: Int? = nil) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { return nil }
            if var size = receiveBuffer {
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            if let receiveTimeout {
                var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port)).bigEndian
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else {
                close(fd)
                return nil
            }
            self.fd = fd
        }

        func send(_ text: String) -> Bool {
            SlowConnectServer.send(fd, text)
        }
    }

    /// Connects, sends `request`, and never reads: the socket.
    private static func stalledConnection(_ port: Int, _ request: String) -> Int32? {
        guard let socket = LoopbackSocket(port: port, receiveBuffer: 16 << 10) else { return nil }
        guard socket.send(request) else {
            close(socket.fd)
            return nil
        }
        return socket.fd
    }

    /// Sends `request` on a new connection and reads the whole answer (`Content-Length` or chunked, or until the
    /// server closes): the seconds it took, `nil` when it failed or took longer than `timeout`.
    private static func timedRequest(_ port: Int, _ request: String, timeout: Int = 10) -> Double? {
        let start = Date()
        guard let socket = LoopbackSocket(port: port, receiveTimeout: timeout) else { return nil }
        defer { close(socket.fd) }
        guard socket.send(request) else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            if Date().timeIntervalSince(start) > Double(timeout) { return nil }
            let count = buffer.withUnsafeMutableBytes { recv(socket.fd, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received.isEmpty ? nil : Date().timeIntervalSince(start) }
            if count < 0 { return nil }
            received.append(contentsOf: buffer[0..<count])
            if isComplete(received) { return Date().timeIntervalSince(start) }
        }
    }

    /// Whether `bytes` hold a whole response.
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return false }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        if head.contains("transfer-encoding: chunked") { return bytes.suffix(5).elementsEqual("0\r\n\r\n".utf8) }
        guard let range = head.range(of: "content-length:") else { return true }
        let length = Int(head[range.upperBound...].prefix { $0 != "\r" }.trimmingCharacters(in: .whitespaces)) ?? 0
        return bytes.count - end >= length
    }

    /// A stream that reads, counting what it received.
    private struct LoopbackReader {
        let socket: Int32
        var tail: [UInt8] = []
        var counts: [String: Int] = [:]
        static let markers = ["event: unleash-connected", "event: unleash-updated"]

        init?(port: Int, request: String) {
            guard let connected = ServeStalledBench.LoopbackSocket(port: port), connected.send(request) else {
                return nil
            }
            socket = connected.fd
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        }

        func count(of marker: String) -> Int { counts[marker] ?? 0 }

        mutating func take(_ bytes: ArraySlice<UInt8>) {
            let text = tail + bytes
            for marker in Self.markers {
                let needle = Array(marker.utf8)
                counts[marker, default: 0] += Self.occurrences(needle, in: text) - Self.occurrences(needle, in: tail)
            }
            tail = Array(text.suffix(32))
        }

        /// How often `needle` occurs in `text` (`memchr` and `memcmp`: a generic search over every hydration read was
        /// too slow to keep up).
        static func occurrences(_ needle: [UInt8], in text: [UInt8]) -> Int {
            text.withUnsafeBytes { haystack in
                needle.withUnsafeBytes { pattern in
                    guard let base = haystack.baseAddress, let patternBase = pattern.baseAddress else { return 0 }
                    let first = Int32(pattern[0])
                    var count = 0
                    var offset = 0
                    while offset + pattern.count <= haystack.count,
                        let found = memchr(base + offset, first, haystack.count - offset - pattern.count + 1)
                    {
                        let index = base.distance(to: UnsafeRawPointer(found))
                        if memcmp(found, patternBase, pattern.count) == 0 {
                            count += 1
                            offset = index + pattern.count
                        } else {
                            offset = index + 1
                        }
                    }
                    return count
                }
            }
        }

        /// Reads every stream until `done` holds for each, or `timeout` seconds.
        static func pump(_ readers: inout [LoopbackReader], timeout: Double, until done: (LoopbackReader) -> Bool) {
            let deadline = Date().addingTimeInterval(timeout)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var descriptors = readers.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
            while Date() < deadline, !readers.allSatisfy(done) {
                guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
                for index in descriptors.indices where descriptors[index].revents != 0 {
                    descriptors[index].revents = 0
                    let count = buffer.withUnsafeMutableBytes {
                        recv(readers[index].socket, $0.baseAddress, $0.count, 0)
                    }
                    if count > 0 { readers[index].take(buffer[0..<count]) }
                }
            }
        }

        /// Reads until nothing arrives for half a second (the hydrations in flight).
        static func drain(_ readers: inout [LoopbackReader]) {
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            var descriptors = readers.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
            var quietSince = Date()
            let deadline = Date().addingTimeInterval(60)
            while Date().timeIntervalSince(quietSince) < 0.5, Date() < deadline {
                guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
                quietSince = Date()
                for index in descriptors.indices where descriptors[index].revents != 0 {
                    descriptors[index].revents = 0
                    let count = buffer.withUnsafeMutableBytes {
                        recv(readers[index].socket, $0.baseAddress, $0.count, 0)
                    }
                    if count > 0 { readers[index].take(buffer[0..<count]) }
                }
            }
        }
    }

    /// A counter several threads add to.
    private final class Counter: @unchecked Sendable {
        // @unchecked: every access holds the lock.
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    // MARK: - Helpers

    private static func executablesToCompare() -> [URL] {
        if let list = ProcessInfo.processInfo.environment["FLAGSTAFF_BENCH_FLAGSTAFF"] {
            return list.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
                .filter { FileManager.default.isExecutableFile(atPath: $0.path) }
        }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("flagstaff")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? [beside] : []
    }

    /// This benchmark holds thousands of sockets: its own soft limit goes up to the hard one.
    private static func raiseOwnLimit() {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    private static func manifest(flags: Int, scratch: URL) -> String? {
        try? BenchManifest.writeTemporaryFile(flagCount: flags)
    }

    private static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        return values.sorted()[values.count / 2]
    }

    private static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "?"
    }
}
#else
enum ServeStalledBench {
    static func run() { print("serve-stalled: Linux with the Server trait only (it reads /proc)") }
}
#endif
