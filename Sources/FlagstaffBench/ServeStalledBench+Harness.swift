// `flagstaff serve` exists only with the Server trait (on by default; see Package.swift).
#if Server && canImport(Glibc)
import Flagstaff
import Foundation
import Glibc

/// What the cases of ``ServeStalledBench`` share: the server as its own process (its memory, CPU-seconds and
/// descriptors read from `/proc`), the clients on 127.0.0.1, and small helpers.
extension ServeStalledBench {
    // MARK: - The server process

    /// A `flagstaff serve` process started for one case.
    final class Served {
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
    struct LoopbackSocket {
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
    static func stalledConnection(_ port: Int, _ request: String) -> Int32? {
        guard let socket = LoopbackSocket(port: port, receiveBuffer: 16 << 10) else { return nil }
        guard socket.send(request) else {
            close(socket.fd)
            return nil
        }
        return socket.fd
    }

    /// Sends `request` on a new connection and reads the whole answer (`Content-Length` or chunked, or until the
    /// server closes): the seconds it took, `nil` when it failed or took longer than `timeout`.
    static func timedRequest(_ port: Int, _ request: String, timeout: Int = 10) -> Double? {
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
    static func isComplete(_ bytes: [UInt8]) -> Bool {
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return false }
        let head = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        if head.contains("transfer-encoding: chunked") { return bytes.suffix(5).elementsEqual("0\r\n\r\n".utf8) }
        guard let range = head.range(of: "content-length:") else { return true }
        let length = Int(head[range.upperBound...].prefix { $0 != "\r" }.trimmingCharacters(in: .whitespaces)) ?? 0
        return bytes.count - end >= length
    }

    /// A stream that reads, counting what it received.
    struct LoopbackReader {
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
    final class Counter: @unchecked Sendable {
        // @unchecked: every access holds the lock.
        private let lock = NSLock()
        private var count = 0
        func add() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    // MARK: - Helpers

    static func executablesToCompare() -> [URL] {
        if let list = ProcessInfo.processInfo.environment["FLAGSTAFF_BENCH_FLAGSTAFF"] {
            return list.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
                .filter { FileManager.default.isExecutableFile(atPath: $0.path) }
        }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("flagstaff")
        return FileManager.default.isExecutableFile(atPath: beside.path) ? [beside] : []
    }

    /// This benchmark holds thousands of sockets: its own soft limit goes up to the hard one.
    static func raiseOwnLimit() {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }

    static func manifest(flags: Int, scratch: URL) -> String? {
        try? BenchManifest.writeTemporaryFile(flagCount: flags)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        return values.sorted()[values.count / 2]
    }

    static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "?"
    }
}
#endif
