import Flagstaff
import Foundation

/// Core benchmark: the hot path (`feature.enabled`), keyed lookup, setting overrides, and search over
/// 100,000 flags.
///
/// Budget (issue 2): `feature.enabled` ≤ 10 ns median, keyed lookup ≤ 50 ns, search over 100,000 flags ≤ 20 ms.
/// For scale on the reference machine: a plain `[String: Bool]` lookup ≈ 29 ns; Unleash's Swift SDK
/// `isEnabled` ≈ 260 ns.
enum CoreBench {
    final class BenchFeatures: FeatureRegistry, @unchecked Sendable {
        let plain = Feature()
        let forced = Feature()
        let dynamic = DynamicFeature { _ in true }
        let nested = BenchGroup()
    }

    final class BenchGroup: FeatureGroup, @unchecked Sendable {
        let infiniteScroll = Feature(defaultState: true)
    }

    static func run() {
        print("== core ==")
        let features = BenchFeatures(options: RegistryOptions(storeWatchInterval: nil))
        features.forced.override = .enabled

        report("feature.enabled (no override)", nanosecondsPerCall(features.plain), budget: "≤ 10 ns")
        report("feature.enabled (overridden)", nanosecondsPerCall(features.forced), budget: "≤ 10 ns")
        report("feature.enabled (dynamic, trivial closure)", nanosecondsPerCall(features.dynamic), budget: nil)
        report("registry.feature(forKey:)", lookupNanoseconds(features), budget: "≤ 50 ns")
        let dictionary = Dictionary(uniqueKeysWithValues: features.allFeatures.map { ($0.key, $0.enabled) })
        report("reference: [String: Bool] lookup", dictionaryNanoseconds(dictionary), budget: nil)
        report("setOverride, in-memory store", setOverrideNanoseconds(features, iterations: 100_000), budget: nil)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-bench-\(getpid())")
        if let store = try? FileOverrideStore(url: directory.appendingPathComponent("overrides.json")) {
            let fileFeatures = BenchFeatures(store: store, options: RegistryOptions(storeWatchInterval: nil))
            report("setOverride, file store (lock + fsync + rename)", setOverrideNanoseconds(fileFeatures, iterations: 300), budget: nil)
            try? FileManager.default.removeItem(at: directory)
        }
        searchBench()
    }

    private static func nanosecondsPerCall(_ feature: AnyFeature) -> [Double] {
        samples { iterations in
            var count = 0
            for _ in 0..<iterations where feature.enabled { count &+= 1 }
            return count
        }
    }

    private static func lookupNanoseconds(_ registry: FeatureRegistry) -> [Double] {
        let keys = ["plain", "nested.infiniteScroll", "dynamic", "forced"]
        return samples { iterations in
            var count = 0
            for index in 0..<iterations where registry.feature(forKey: keys[index & 3]) != nil { count &+= 1 }
            return count
        }
    }

    private static func dictionaryNanoseconds(_ dictionary: [String: Bool]) -> [Double] {
        let keys = ["plain", "nested.infiniteScroll", "dynamic", "forced"]
        return samples { iterations in
            var count = 0
            for index in 0..<iterations where dictionary[keys[index & 3]] == true { count &+= 1 }
            return count
        }
    }

    private static func setOverrideNanoseconds(_ registry: BenchFeatures, iterations: Int) -> [Double] {
        var results: [Double] = []
        for _ in 0..<5 {
            let start = DispatchTime.now().uptimeNanoseconds
            for index in 0..<iterations {
                try? registry.setOverride(index.isMultiple(of: 2) ? .enabled : .disabled, for: registry.plain)
            }
            results.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
        }
        return results
    }

    /// Runs `body` in 11 batches of 5M iterations and returns nanoseconds per iteration for each batch.
    private static func samples(_ body: (Int) -> Int) -> [Double] {
        let iterations = 5_000_000
        var sink = 0
        var results: [Double] = []
        for _ in 0..<11 {
            let start = DispatchTime.now().uptimeNanoseconds
            sink &+= body(iterations)
            results.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations))
        }
        if sink == -1 { print(sink) }
        return results
    }

    private static func searchBench() {
        let words = ["avatar", "scroll", "network", "cache", "payment", "checkout", "moments", "like", "button",
                     "rounded", "compact", "debug", "logging", "tab", "bar", "infinite", "prefetch", "retry"]
        var groups: [RegistryManifest.Group] = []
        for g in 0..<1_000 {
            let flags = (0..<100).map { i -> RegistryManifest.Flag in
                let n = g * 100 + i
                let a = words[n % words.count], b = words[(n / 7) % words.count], c = words[(n / 49) % words.count]
                return RegistryManifest.Flag(key: "group\(g).\(a)\(b.capitalized)\(c.capitalized)\(n)",
                                             description: "Turns \(a) \(b) \(c) on for flag \(n)", default: n % 3 == 0)
            }
            groups.append(RegistryManifest.Group(key: "group\(g)", flags: flags))
        }
        guard let registry = try? FeatureRegistry(manifest: RegistryManifest(name: "Search bench", groups: groups),
                                                  options: RegistryOptions(storeWatchInterval: nil)) else { return }
        let clock = ContinuousClock()
        let indexTime = clock.measure { _ = registry.search("warm up") }
        print("search index build, 100,000 flags: \(format(indexTime))")
        // Each query from scratch (recent searches forgotten), then typing character by character.
        for query in ["avatarScroll", "cache", "pay chk", "flag 4242", "zzzz", "a"] {
            var times: [Double] = []
            var count = 0
            for _ in 0..<9 {
                registry.forgetRecentSearches()
                let elapsed = clock.measure { count = registry.search(query).count }
                times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
            }
            times.sort()
            print(String(format: "search %-14@ over 100,000 flags: median %6.2f ms  max %6.2f ms  (%d results)  [budget ≤ 20 ms]",
                         "\"\(query)\"" as NSString, times[times.count / 2], times.last ?? 0, count))
        }
        var typing: [Double] = []
        for _ in 0..<5 {
            var typed = ""
            for character in "infinite prefetch" {
                typed.append(character)
                let elapsed = clock.measure { _ = registry.search(typed) }
                typing.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
            }
            registry.forgetRecentSearches()
        }
        typing.sort()
        print(String(format: "search while typing \"infinite prefetch\" (per keystroke): median %.2f ms  p99 %.2f ms  max %.2f ms",
                     typing[typing.count / 2], typing[min(typing.count - 1, typing.count * 99 / 100)], typing.last ?? 0))
    }

    private static func report(_ name: String, _ samples: [Double], budget: String?) {
        let sorted = samples.sorted()
        let median = sorted[sorted.count / 2]
        let suffix = budget.map { "  [budget \($0)]" } ?? ""
        print(String(format: "%-48@ median %8.2f ns  min %8.2f ns%@", name as NSString, median, sorted.first ?? 0, suffix as NSString))
    }

    private static func format(_ duration: Duration) -> String {
        String(format: "%.1f ms", Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15)
    }
}
