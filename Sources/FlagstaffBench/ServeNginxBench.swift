// `flagstaff serve` exists only with the Server trait (on by default; see Package.swift).
#if Server
import Foundation
import FlagstaffTerminalDriver

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flagstaff serve` side by side with a static file server: Debian's nginx (`etag on`, `gzip on`) serving the
/// same `/api/frontend` body as a file, both loaded by `wrk -t1 -c50` in turn, in one run (docs/performance.md,
/// "Serving a poll"). Skipped, saying why, when nginx or wrk is missing.
enum ServeNginxBench {
    /// One `wrk` run's figures.
    struct Figures {
        var requestsPerSecond: Double
        var p50: Double
        var p99: Double
        var errors: Int
    }

    static func run(flagstaff executable: URL, scratch: URL) {
        guard let nginx = find("nginx", in: ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"]) else {
            return print("  nginx side by side: skipped (no nginx; apt-get install nginx)")
        }
        guard let wrk = find("wrk", in: ["/usr/bin", "/usr/local/bin"]) else {
            return print("  nginx side by side: skipped (no wrk; apt-get install wrk)")
        }
        guard let manifest = try? BenchManifest.writeTemporaryFile(flagCount: 1_000) else {
            return print("  nginx side by side: cannot write the manifest")
        }
        defer { try? FileManager.default.removeItem(atPath: manifest) }
        guard
            let serve = ServeBench.launchServe(
                executable, arguments: ["--manifest", manifest], scratch: scratch.appendingPathComponent("compare"))
        else { return print("  nginx side by side: flagstaff serve did not start") }
        defer { ServeBench.stop(serve.process) }
        guard let (servedTag, body) = fetch(port: serve.port, path: "/api/frontend") else {
            return print("  nginx side by side: no body from flagstaff serve")
        }
        let site = scratch.appendingPathComponent("nginx")
        guard let (nginxProcess, nginxPort) = startNginx(nginx, site: site, body: body) else {
            return print("  nginx side by side: nginx did not start (see \(site.path)/error.log)")
        }
        defer {
            nginxProcess.terminate()
            nginxProcess.waitUntilExit()
        }
        guard let (nginxTag, nginxBody) = fetch(port: nginxPort, path: "/api/frontend"), nginxBody == body else {
            return print("  nginx side by side: nginx does not serve the same body")
        }
        print(
            "  side by side with nginx \(version(nginx)) (etag on, gzip on, Debian's defaults otherwise), the same "
                + "\(body.count / 1024) KB /api/frontend body, wrk -t1 -c50 -d5s, alternating:")
        var rows: [(String, String, [String])] = [
            ("304 (If-None-Match)", "If-None-Match", [nginxTag, servedTag]),
            ("200 gzip (Accept-Encoding: gzip)", "Accept-Encoding", ["gzip", "gzip"]),
        ]
        if body.isEmpty { rows.removeAll() }
        for (label, header, values) in rows {
            var nginxRuns: [Figures] = []
            var servedRuns: [Figures] = []
            for _ in 0..<2 {
                if let figures = load(wrk, port: nginxPort, header: "\(header): \(values[0])") {
                    nginxRuns.append(figures)
                }
                if let figures = load(wrk, port: serve.port, header: "\(header): \(values[1])") {
                    servedRuns.append(figures)
                }
            }
            report(label, nginx: nginxRuns, served: servedRuns)
        }
    }

    /// One `wrk -t1 -c50 -d5s` run against the in-process server, printed; nothing without wrk.
    static func reportWrk(_ label: String, port: Int, header: String) {
        guard let wrk = find("wrk", in: ["/usr/bin", "/usr/local/bin"]),
            let figures = load(wrk, port: port, header: header)
        else { return }
        print(
            String(
                format: "  %@, wrk -t1 -c50 -d5s: %.0f req/s, p50 %.2f ms, p99 %.2f ms%@", label,
                figures.requestsPerSecond, figures.p50, figures.p99,
                figures.errors > 0 ? " (\(figures.errors) errors)" : ""))
    }

    private static func report(_ label: String, nginx: [Figures], served: [Figures]) {
        func describe(_ runs: [Figures]) -> String {
            runs.map {
                String(
                    format: "%.0f req/s p50 %.2f ms p99 %.2f ms%@", $0.requestsPerSecond, $0.p50, $0.p99,
                    $0.errors > 0 ? " (\($0.errors) errors)" : "")
            }.joined(separator: "; ")
        }
        print("    \(label): nginx \(describe(nginx))")
        print("    \(label): flagstaff serve \(describe(served))")
        let nginxRate = nginx.map(\.requestsPerSecond).reduce(0, +) / Double(max(1, nginx.count))
        let servedRate = served.map(\.requestsPerSecond).reduce(0, +) / Double(max(1, served.count))
        let nginxP99 = nginx.map(\.p99).max() ?? .nan
        let servedP99 = served.map(\.p99).max() ?? .nan
        print(
            String(
                format: "    %@: flagstaff serve / nginx = %.2f× the rate, p99 %.2f ms vs %.2f ms (%+.2f ms)", label,
                servedRate / nginxRate, servedP99, nginxP99, servedP99 - nginxP99))
    }

    // MARK: nginx

    /// Writes the site (the body as `api/frontend`, a configuration on a free port) and starts nginx in the
    /// background; returns its port once it answers.
    private static func startNginx(_ nginx: String, site: URL, body: [UInt8]) -> (process: Process, port: Int)? {
        let root = site.appendingPathComponent("root/api")
        try? FileManager.default.createDirectory(
            at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        guard
            FileManager.default.createFile(atPath: root.appendingPathComponent("frontend").path, contents: Data(body)),
            let port = LoopbackSocket.freePort()
        else { return nil }
        // Workers read the files as nginx's default user: every folder on the way must be readable.
        for folder in [site, site.appendingPathComponent("root"), root] {
            chmod(folder.path, 0o755)
        }
        chmod(root.appendingPathComponent("frontend").path, 0o644)
        let configuration = """
            worker_processes auto;
            pid \(site.path)/nginx.pid;
            error_log \(site.path)/error.log;
            events { worker_connections 1024; }
            http {
                access_log off;
                default_type application/json;
                etag on;
                gzip on;
                gzip_types application/json;
                server {
                    listen 127.0.0.1:\(port);
                    root \(site.path)/root;
                }
            }
            """
        let file = site.appendingPathComponent("nginx.conf")
        guard (try? configuration.write(to: file, atomically: true, encoding: .utf8)) != nil else { return nil }
        // In the foreground (`daemon off`): a child of this process, stopped with SIGTERM.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = [
            "-e", site.appendingPathComponent("error.log").path, "-p", site.path, "-c", file.path, "-g", "daemon off;",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        for _ in 0..<50 {
            if let socket = LoopbackSocket.connect(port: port) {
                close(socket)
                return (process, port)
            }
            usleep(100_000)
        }
        process.terminate()
        process.waitUntilExit()
        return nil
    }

    private static func version(_ nginx: String) -> String {
        let text = runToEnd(nginx, ["-v"], errorToo: true) ?? ""
        return text.split(separator: "/").last.map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "?"
    }

    // MARK: wrk

    /// `wrk -t1 -c50 -d5s --latency` with one extra header against `/api/frontend`.
    private static func load(_ wrk: String, port: Int, header: String) -> Figures? {
        let output =
            runToEnd(
                wrk, ["-t1", "-c50", "-d5s", "--latency", "-H", header, "http://127.0.0.1:\(port)/api/frontend"]) ?? ""
        return parse(output)
    }

    /// The rate, p50 and p99 of wrk's report (`Requests/sec:`, the `--latency` distribution), and its errors.
    static func parse(_ output: String) -> Figures? {
        var figures = Figures(requestsPerSecond: .nan, p50: .nan, p99: .nan, errors: 0)
        for line in output.split(separator: "\n") {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if line.hasPrefix("Requests/sec:"), let rate = words.last.flatMap({ Double($0) }) {
                figures.requestsPerSecond = rate
            } else if words.count == 2, words[0] == "50%" {
                figures.p50 = milliseconds(words[1]) ?? .nan
            } else if words.count == 2, words[0] == "99%" {
                figures.p99 = milliseconds(words[1]) ?? .nan
            } else if line.contains("Non-2xx or 3xx responses:") || line.contains("Socket errors:") {
                figures.errors += line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
            }
        }
        return figures.requestsPerSecond.isNaN ? nil : figures
    }

    /// `1.23ms`, `456.00us`, `1.02s` in milliseconds.
    private static func milliseconds(_ text: Substring) -> Double? {
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return nil
    }

    // MARK: Helpers

    private static func find(_ name: String, in folders: [String]) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        return (path + folders).map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Runs a program to its end; its standard output (and error when asked), or `nil` when it could not run or
    /// failed.
    private static func runToEnd(_ program: String, _ arguments: [String], errorToo: Bool = false) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = errorToo ? pipe : FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `GET path` on a new connection: the ETag and the body (`Content-Length` framed), or `nil`.
    private static func fetch(port: Int, path: String) -> (etag: String, body: [UInt8])? {
        guard let socket = LoopbackSocket.connect(port: port, receiveTimeout: 5) else { return nil }
        defer { close(socket) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: b\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count else {
            return nil
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var head: (end: Int, etag: String, length: Int)?
        while true {
            if let head, received.count >= head.end + 4 + head.length { break }
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += buffer[0..<count]
            if head == nil, let end = headEnd(received) {
                var etag = ""
                var length = 0
                for line in received[0..<end].split(separator: 0x0A) {
                    let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    let lower = text.lowercased()
                    if lower.hasPrefix("etag:") {
                        etag = String(text.dropFirst(5)).trimmingCharacters(in: .whitespaces)
                    }
                    if lower.hasPrefix("content-length:") {
                        length = Int(lower.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
                head = (end, etag, length)
            }
        }
        guard let head, !head.etag.isEmpty else { return nil }
        return (head.etag, Array(received[(head.end + 4)..<(head.end + 4 + head.length)]))
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first {
            bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
        }
    }
}
#endif
