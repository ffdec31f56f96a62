import Flagstaff
import FlagstaffUnleash
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unleash client read path: what `isEnabled`, `variant` and a registry flag backed by a toggle cost when the
/// answers are in memory (served from a bootstrap, so no network is involved), with and without metrics counting,
/// and two threads reading at once (wall and CPU time per call per thread, see ``ParallelRun``).
///
/// Times are CPU time of the measuring thread, best of three rounds. Run in release:
/// `swift run -c release flagstaff-bench unleash-client`.
enum UnleashClientBench {
    /// Runs the benchmark and prints one row per case.
    static func run(iterations: Int = 1_000_000) {
        print("== unleash client (in-memory answers) ==")
        let toggles = (0..<200).map { index in
            UnleashToggle(
                name: "toggle.\(index)", enabled: index.isMultiple(of: 2),
                variant: UnleashVariant(
                    name: "v\(index % 3)", enabled: true, featureEnabled: true,
                    payload: UnleashPayload(type: "string", value: "p")))
        }
        let unused = URL(string: "http://127.0.0.1:9/api/frontend") ?? URL(fileURLWithPath: "/")
        let counting = UnleashClient(url: unused, clientKey: "k", appName: "bench", bootstrap: .toggles(toggles))
        let quiet = UnleashClient(
            url: unused, clientKey: "k", appName: "bench", disableMetrics: true,
            bootstrap: .toggles(toggles))
        let registry = AnyFeatureRegistry()
        counting.attach(to: registry)
        guard let flag = registry.flag(forKey: "toggle.42") else {
            print("unleash-client: the toggle was not registered")
            return
        }
        row("isEnabled, metrics on", measure(iterations) { counting.isEnabled("toggle.42") ? 1 : 0 })
        row("isEnabled, metrics off", measure(iterations) { quiet.isEnabled("toggle.42") ? 1 : 0 })
        row("variant, metrics on", measure(iterations) { counting.variant("toggle.42").name.utf8.count })
        row("registry flag .enabled (UnleashFeature)", measure(iterations) { flag.enabled ? 1 : 0 })
        serverRows(iterations: iterations, unused: unused)
        let parallelRows: [(label: String, body: @Sendable () -> Int)] = [
            ("isEnabled, metrics on", { counting.isEnabled("toggle.42") ? 1 : 0 }),
            ("isEnabled, metrics off", { quiet.isEnabled("toggle.42") ? 1 : 0 }),
        ]
        for (label, body) in parallelRows {
            let single = ParallelRun.measure(threads: 1, iterations: iterations, body)
            let double = ParallelRun.measure(threads: 2, iterations: iterations / 2, body)
            row("\(label), 2 threads: wall per call per thread", double.wall)
            row("\(label), 2 threads: CPU per call per thread", double.cpu)
            print(
                String(
                    format: "  (1 thread: %.0f ns CPU; wall/1-thread %.2fx, CPU/1-thread %.2fx)",
                    single.cpu, double.wall / single.cpu, double.cpu / single.cpu))
        }
    }

    /// The server-side client's `isEnabled` beside the engine's: what the client adds (context completion, the
    /// impression check: one atomic load while nobody subscribes, a feature lookup while someone does) with metrics
    /// off, and the cost of building and delivering an impression.
    private static func serverRows(iterations: Int, unused: URL) {
        let state = Data(
            #"""
            {"version":2,"features":[
              {"name":"plain","enabled":true,"strategies":[{"name":"default"}]},
              {"name":"watched","enabled":true,"impressionData":true,"strategies":[{"name":"default"}]}
            ]}
            """#.utf8)
        guard
            let server = try? UnleashServerClient(
                url: unused, apiKey: "k", appName: "bench", disableMetrics: true,
                context: UnleashContext(userId: "42"), bootstrap: state)
        else {
            print("unleash-client: the server client's bootstrap was rejected")
            return
        }
        let context = server.defaultContext
        row(
            "server: engine.isEnabled (baseline)",
            measure(iterations) { server.engine.isEnabled("plain", context: context) ? 1 : 0 })
        row("server: isEnabled, nobody subscribed", measure(iterations) { server.isEnabled("plain") ? 1 : 0 })
        let subscription = server.onEvent { _ in }
        row(
            "server: isEnabled, subscribed, no impressionData",
            measure(iterations) { server.isEnabled("plain") ? 1 : 0 })
        row(
            "server: isEnabled, subscribed, impressionData", measure(iterations) { server.isEnabled("watched") ? 1 : 0 }
        )
        subscription.cancel()
    }

    private static func measure(_ iterations: Int, _ body: () -> Int) -> Double {
        var best = Double.infinity
        var checksum = 0
        for _ in 0..<3 {
            let start = threadCPUNanoseconds()
            for _ in 0..<iterations { checksum &+= body() }
            best = min(best, (threadCPUNanoseconds() - start) / Double(iterations))
        }
        if checksum == -1 { print("unreachable checksum") }
        return best
    }

    private static func row(_ label: String, _ nanoseconds: Double) {
        let padded = label + String(repeating: " ", count: max(1, 60 - label.count))
        print(padded + String(format: "%8.0f ns  %12.0f /s", nanoseconds, 1e9 / nanoseconds))
    }

    private static func threadCPUNanoseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e9 + Double(spec.tv_nsec)
    }
}
