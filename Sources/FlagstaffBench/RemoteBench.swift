import Flagstaff
import FlagstaffRemote
import Foundation

/// Remote-config benchmark: the cost of reading a `RemoteFeature` (the hot path) against a static `Feature`,
/// of `RemoteConfig` value reads (on one thread and on two at once), of `decoded(as:)` (Int, Bool, a struct)
/// beside `numberValue`, and of fetch + activate + persist for a 1,000-key template.
enum RemoteBench {
    /// Serves a fixed template from memory, so only `RemoteConfig`'s own work is measured.
    private struct MemoryProvider: RemoteConfigProvider {
        let name = "memory"
        let entries: [String: String]
        func fetch(_ request: RemoteConfigFetchRequest) async throws(RemoteConfigProviderError)
            -> RemoteConfigFetchResponse
        {
            RemoteConfigFetchResponse(content: .entries(entries), templateVersion: "1", eTag: "\(entries.count)")
        }
    }

    /// Runs the benchmark, blocking the calling (main) thread until it finishes.
    static func run() {
        let done = DispatchSemaphore(value: 0)
        Task {
            await measure()
            done.signal()
        }
        done.wait()
    }

    private static func measure() async {
        print("== remote config ==")
        var entries: [String: String] = [:]
        for index in 0..<1000 { entries["key\(index)"] = index.isMultiple(of: 2) ? "true" : "0" }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-bench-remote-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = RemoteConfig(
            provider: MemoryProvider(entries: entries), storageDirectory: directory,
            settings: RemoteConfigSettings(minimumFetchInterval: 0))
        let clock = ContinuousClock()
        let fetchTime = await clock.measure { _ = await config.fetchAndActivate() }
        print("fetch + activate + persist, 1,000 keys: \(format(fetchTime))")

        let remote = RemoteFeature(key: "bench.remote", remoteKey: "key42", default: false, config: config)
        let plain = Feature(key: "bench.static", default: true)
        let iterations = 10_000_000
        var count = 0
        let remoteTime = clock.measure {
            for _ in 0..<iterations where remote.enabled { count += 1 }
        }
        let plainTime = clock.measure {
            for _ in 0..<iterations where plain.enabled { count += 1 }
        }
        let readIterations = 1_000_000
        let valueTime = clock.measure {
            for index in 0..<readIterations where config["key\(index & 1023)"].boolValue { count += 1 }
        }
        print(
            "RemoteFeature.enabled: \(perOperation(remoteTime, iterations))   Feature.enabled: \(perOperation(plainTime, iterations))"
        )
        print(
            "RemoteConfig[key].boolValue (incl. key formatting): \(perOperation(valueTime, readIterations))   (checksum \(count))"
        )

        // decoded(as:) with the SDK's decoder rules, beside the accessor it reads through.
        struct Banner: Decodable {
            var title: String
            var maxItems: Int
        }
        let number = RemoteConfigValue(string: "1e3", source: .remote)
        let json = RemoteConfigValue(string: #"{"title":"Hi","maxItems":3}"#, source: .remote)
        let decodeIterations = 200_000
        var total = 0.0
        let numberTime = clock.measure { for _ in 0..<decodeIterations { total += number.numberValue } }
        let intTime = clock.measure {
            for _ in 0..<decodeIterations { total += Double((try? number.decoded(as: Int.self)) ?? 0) }
        }
        let boolTime = clock.measure {
            for _ in 0..<decodeIterations where (try? number.decoded(as: Bool.self)) == true { count += 1 }
        }
        let structTime = clock.measure {
            for _ in 0..<decodeIterations { count += (try? json.decoded(as: Banner.self))?.maxItems ?? 0 }
        }
        print(
            "numberValue: \(perOperation(numberTime, decodeIterations))   decoded(as: Int): \(perOperation(intTime, decodeIterations))"
                + "   decoded(as: Bool): \(perOperation(boolTime, decodeIterations))"
                + "   decoded(as: struct): \(perOperation(structTime, decodeIterations))   (checksum \(Int(total)))")

        // Lookups (no value parsing) on one thread, then on two at once: per-read wall time (time / reads per
        // thread), equal to the one-thread figure when reads do not contend (and the machine has two idle cores).
        let keys = (0..<1024).map { "key\($0)" }
        for threads in [1, 2] {
            let lookup = parallel(threads: threads, iterations: readIterations) { index in
                config[keys[index & 1023]].source == .remote
            }
            let flag = parallel(threads: threads, iterations: iterations) { _ in remote.enabled }
            print(
                "\(threads) thread(s): RemoteConfig[key].source: \(String(format: "%.1f", lookup)) ns/read"
                    + "   RemoteFeature.enabled: \(String(format: "%.1f", flag)) ns/read")
        }
    }

    /// Runs `read` `iterations` times on each of `threads` threads at once; returns the wall time per read of
    /// one thread, in nanoseconds.
    private static func parallel(threads: Int, iterations: Int, _ read: @escaping @Sendable (Int) -> Bool) -> Double {
        let elapsed = ContinuousClock().measure {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                var count = 0
                for index in 0..<iterations where read(index) { count += 1 }
                if count == -1 { print("unreachable count") }
            }
        }
        return (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9)
            / Double(iterations)
    }

    private static func perOperation(_ duration: Duration, _ iterations: Int) -> String {
        let nanoseconds = Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
        return String(format: "%.1f ns/op", nanoseconds / Double(iterations))
    }

    private static func format(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f ms", milliseconds)
    }
}
