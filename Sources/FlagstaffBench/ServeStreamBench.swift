// `flagstaff serve` exists only with the Server trait (on by default; see Package.swift).
#if Server
import Flagstaff
import FlagstaffRemote
import FlagstaffServer
import FlagstaffTerminalDriver
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Event streams under load: a light load generator (one thread, `poll(2)` over raw loopback sockets) keeps
/// 1,000 `GET /api/client/streaming` streams open on the in-process server; after each change of the registry
/// (made in this process, as a key press in `console --serve` is) it times when every stream has its
/// `unleash-updated` event. Resident memory of the process before and after the streams opened.
enum ServeStreamBench {
    /// The subscribers' sockets and what each has read.
    private struct Subscriber {
        var socket: Int32
        var connected = false
        var updates = 0
        var tail: [UInt8] = []
    }

    /// - Parameter whileOpen: run with every stream still open (a polling load beside them).
    static func run(
        port: Int, registry: AnyFeatureRegistry, streams count: Int, changes: Int, whileOpen: () -> Void
    ) -> (
        opened: Int, latencies: [Double], rssBefore: Double, rssAfter: Double
    ) {
        let before = residentMegabytes()
        var subscribers: [Subscriber] = []
        for _ in 0..<count {
            guard let socket = LoopbackSocket.connect(port: port, noDelay: true) else { break }
            let request = Array("GET /api/client/streaming HTTP/1.1\r\nHost: b\r\nunleash-appname: bench\r\n\r\n".utf8)
            _ = request.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            subscribers.append(Subscriber(socket: socket))
        }
        defer { for subscriber in subscribers { close(subscriber.socket) } }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        // Reads what has arrived; true when every subscriber has `updates` events.
        func pump(until done: (Subscriber) -> Bool, timeout: Double, onSeen: (Int) -> Void = { _ in }) {
            let deadline = Date().addingTimeInterval(timeout)
            var descriptors = subscribers.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
            while Date() < deadline, !subscribers.allSatisfy(done) {
                guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
                for index in descriptors.indices where descriptors[index].revents != 0 {
                    descriptors[index].revents = 0
                    let read = buffer.withUnsafeMutableBytes {
                        recv(subscribers[index].socket, $0.baseAddress, $0.count, 0)
                    }
                    guard read > 0 else { continue }
                    let text = subscribers[index].tail + buffer[0..<read]
                    let connectedMarker = Array("event: unleash-connected".utf8)
                    let updatedMarker = Array("event: unleash-updated".utf8)
                    if !subscribers[index].connected, contains(text, connectedMarker) {
                        subscribers[index].connected = true
                    }
                    let seen = occurrences(text, updatedMarker) - occurrences(subscribers[index].tail, updatedMarker)
                    if seen > 0 {
                        subscribers[index].updates += seen
                        onSeen(index)
                    }
                    subscribers[index].tail = Array(text.suffix(32))
                }
            }
        }
        pump(until: \.connected, timeout: 60)
        let opened = subscribers.filter(\.connected).count
        let whileConnecting = residentMegabytes()
        // Each `unleash-connected` carries the whole state (about 150 KB at 1,000 flags): read all of it before
        // timing changes, or the first change's time is that of reading 1,000 hydrations.
        var quietSince = Date()
        let drainDeadline = Date().addingTimeInterval(60)
        var descriptors = subscribers.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
        while Date().timeIntervalSince(quietSince) < 0.5, Date() < drainDeadline {
            guard poll(&descriptors, nfds_t(descriptors.count), 100) > 0 else { continue }
            quietSince = Date()
            for index in descriptors.indices where descriptors[index].revents != 0 {
                descriptors[index].revents = 0
                _ = buffer.withUnsafeMutableBytes { recv(subscribers[index].socket, $0.baseAddress, $0.count, 0) }
            }
        }
        // With every stream open and idle (what the budget reads); the figure while the hydrations are in flight is
        // printed too.
        let after = residentMegabytes()
        print(
            String(
                format: "  resident memory right after the streams connected, hydrations in flight: %.1f MB",
                whileConnecting))
        var latencies: [Double] = []
        let key = registry.allFeatures.first { $0.settingType == .boolean }?.key ?? ""
        for change in 0..<changes {
            let target = change + 1
            let start = DispatchTime.now().uptimeNanoseconds
            // The opposite of the value now (an earlier part of the benchmark may have left it either way).
            let now = registry.feature(forKey: key)?.explanation.value
            try? registry.setOverrideValues([key: .set(now == .on ? .off : .on)])
            var counted = Set<Int>()
            let done: (Subscriber) -> Bool = { $0.updates >= target || !$0.connected }
            pump(
                until: done, timeout: 10,
                onSeen: { index in
                    if counted.insert(index).inserted {
                        latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                    }
                })
            usleep(200_000)
        }
        whileOpen()
        return (opened, latencies, before, after)
    }

    /// The Swift link client end to end: a registry from `manifest` linked by ``OFREPProvider`` to the server on
    /// `port`; `change(n)` makes the n-th change (it sets `key` to on for even n, off for odd); the time from the
    /// call until the linked registry's member has the new value, per change after the first (which also waits for
    /// the link to start).
    static func linkLatencies(
        port: Int, manifest: RegistryManifest, key: String, changes: Int, pause: Double = 0.02,
        change: (Int) -> Void
    ) -> [Double] {
        guard let registry = try? AnyFeatureRegistry(manifest: manifest, store: InMemoryOverrideStore()),
            let url = URL(string: "http://127.0.0.1:\(port)")
        else { return [] }
        let provider = OFREPProvider(options: OFREPOptions(baseURL: url))
        let expected = AnnotatedMutex<(value: OverrideValue, seen: DispatchSemaphore)?>(nil)
        let subscription = registry.onChange { _ in
            let value = registry.feature(forKey: key)?.explanation.value
            expected.withLock { waiting in
                if let current = waiting, current.value == value {
                    current.seen.signal()
                    waiting = nil
                }
            }
        }
        let link = provider.link(to: registry)
        defer {
            subscription.cancel()
            link.unlink()
            provider.stop()
        }
        var latencies: [Double] = []
        for index in 0..<changes {
            let value: OverrideValue = index % 2 == 0 ? .on : .off
            let seen = DispatchSemaphore(value: 0)
            expected.withLock { $0 = (value, seen) }
            let start = DispatchTime.now().uptimeNanoseconds
            change(index)
            guard seen.wait(timeout: .now() + 10) == .success else {
                print("  link client: change \(index + 1) not seen within 10 s")
                break
            }
            // The first change also waits for the link to start: not counted.
            if index > 0 { latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
            usleep(useconds_t(pause * 1e6))
        }
        return latencies
    }

    /// `flagstaff set` run as its own process against the store of a `flagstaff serve` process, and a link client
    /// in this one: the time from starting `flagstaff set` until the linked registry has the value (the start of
    /// a process included, as QA's terminal has it), per change after the first.
    static func setInAnotherProcess(_ executable: URL, scratch: URL, changes: Int) -> [Double] {
        let manifest = BenchManifest.make(flagCount: 1_000)
        guard let manifestFile = try? BenchManifest.writeTemporaryFile(flagCount: 1_000) else { return [] }
        defer { try? FileManager.default.removeItem(atPath: manifestFile) }
        guard
            let served = ServeBench.launchServe(executable, arguments: ["--manifest", manifestFile], scratch: scratch)
        else {
            print("  flagstaff set → link client: flagstaff serve did not start")
            return []
        }
        defer { ServeBench.stop(served.process) }
        let store = scratch.appendingPathComponent("store.json").path
        let key = booleanKey(of: manifest)
        var runs: [Double] = []
        let latencies = linkLatencies(port: served.port, manifest: manifest, key: key, changes: changes, pause: 0.05) {
            let process = Process()
            process.executableURL = executable
            process.arguments = ["set", "--manifest", manifestFile, "--store", store, key, $0 % 2 == 0 ? "on" : "off"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            let start = DispatchTime.now().uptimeNanoseconds
            guard (try? process.run()) != nil else { return }
            process.waitUntilExit()
            runs.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let sorted = runs.sorted()
        if !sorted.isEmpty {
            print(
                String(
                    format: "  flagstaff set alone (start to exit): p50 %.1f ms, max %.1f ms",
                    sorted[sorted.count / 2] * 1000, (sorted.last ?? .nan) * 1000))
        }
        return latencies
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        occurrences(haystack, needle) > 0
    }

    private static func occurrences(_ haystack: [UInt8], _ needle: [UInt8]) -> Int {
        guard haystack.count >= needle.count else { return 0 }
        var found = 0
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], Array(haystack[index..<(index + needle.count)]) == needle {
                found += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// The key of the first on/off flag of `manifest` (empty when it has none).
    static func booleanKey(of manifest: RegistryManifest) -> String {
        let members = (try? AnyFeatureRegistry(manifest: manifest, store: InMemoryOverrideStore()))?.allFeatures ?? []
        return members.first { $0.settingType == .boolean }?.key ?? ""
    }

    /// This process's resident memory, in MB.
    static func residentMegabytes() -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return .nan }
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan) / 1024
    }
}
#endif
