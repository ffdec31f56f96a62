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
    /// Runs every case, or only the stalled readers (`flagstaff-bench serve-stalled-readers`).
    static func run(readersOnly: Bool = false) {
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
        guard !readersOnly else { return print("load average after: \(loadAverage())") }
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
}
#else
enum ServeStalledBench {
    static func run(readersOnly: Bool = false) {
        print("serve-stalled: Linux with the Server trait only (it reads /proc)")
    }
}
#endif
