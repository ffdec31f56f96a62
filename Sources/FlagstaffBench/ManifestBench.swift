import Flagstaff
import Foundation

/// Manifest benchmark: decoding the generated 100,000-flag manifest (``BenchManifest``: keys, labels,
/// descriptions, defaults, requiresRestart) with `RegistryManifest.decode` (our single-pass reader) beside
/// `JSONDecoder`.
///
/// Budget: the standalone console has 300 ms from start to the first frame for 100,000 flags; decoding the
/// manifest should take well under 80 ms of that.
enum ManifestBench {
    static func run(flagCount: Int = 100_000) {
        print("== manifest: \(flagCount) flags ==")
        let manifest = BenchManifest.make(flagCount: flagCount)
        guard let data = try? JSONEncoder().encode(manifest) else {
            print("manifest: cannot encode the generated manifest")
            return
        }
        print(
            String(
                format: "file size                                        %.1f MB (%d bytes)", Double(data.count) / 1e6,
                data.count))

        let ours = measure(times: 5) { try RegistryManifest.decode(data, source: "bench.json") }
        let theirs = measure(times: 3) { try JSONDecoder().decode(RegistryManifest.self, from: data) }
        guard let ours, let theirs else { return }
        guard ours.result == manifest, theirs.result == manifest else {
            print("manifest: a decoder did not give back the generated manifest")
            return
        }
        print("RegistryManifest.decode (median of 5)            \(format(ours.median))  [budget well under 80 ms]")
        print(String(format: "  CPU time of the reading thread (best of 5)     %.1f ms", cpuMilliseconds(data)))
        print("JSONDecoder().decode (median of 3)               \(format(theirs.median))")
        let speedUp = seconds(theirs.median) / max(seconds(ours.median), 1e-9)
        print(String(format: "speed-up                                         %.1f×", speedUp))
        announcement(manifest)
    }

    /// What announcing costs in the background after an app starts: a registry of the manifest on a file store,
    /// made with `announcesManifest` off, then on with no file beside the store (a first launch: the manifest is
    /// written), then on again (a later launch: read, compared, left alone), each until its announcement is done;
    /// medians of alternating rounds.
    private static func announcement(_ manifest: RegistryManifest) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flagstaff-announce-\(UUID())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("app.json")
        let clock = ContinuousClock()
        var off: [Duration] = []
        var first: [Duration] = []
        var again: [Duration] = []
        // Until the announcement is written (it runs in the background; making the registry does not wait).
        func make(announcing: Bool) -> Duration {
            let start = clock.now
            let registry = try? AnyFeatureRegistry(
                manifest: manifest, store: try FileOverrideStore(url: url),
                options: RegistryOptions(storeWatchInterval: nil, announcesManifest: announcing))
            registry?.waitForAnnouncement()
            return clock.now - start
        }
        for _ in 0..<3 {
            off.append(make(announcing: false))
            try? FileManager.default.removeItem(at: url.appendingPathExtension("manifest.json"))
            first.append(make(announcing: true))
            again.append(make(announcing: true))
        }
        func median(_ list: [Duration]) -> Duration { list.sorted()[list.count / 2] }
        print("registry on a file store, not announcing (median of 3)   \(format(median(off)))")
        print("  announcing, first launch (writes the manifest)         \(format(median(first)))")
        print("  announcing, later launch (reads and compares)          \(format(median(again)))")
    }

    private static func measure(times: Int, _ body: () throws -> RegistryManifest) -> (
        median: Duration, result: RegistryManifest
    )? {
        let clock = ContinuousClock()
        var durations: [Duration] = []
        // Results are kept until all runs are done, so freeing one is not timed as part of the next.
        var results: [RegistryManifest] = []
        for _ in 0..<times {
            let start = clock.now
            do {
                results.append(try body())
            } catch {
                print("manifest: decoding failed: \(error)")
                return nil
            }
            durations.append(clock.now - start)
        }
        guard let result = results.last else { return nil }
        return (durations.sorted()[durations.count / 2], result)
    }

    /// The least CPU time of the calling thread that reading `data` took in five rounds: what the reader costs,
    /// whatever else the machine runs (the wall-clock median above moves with the load).
    private static func cpuMilliseconds(_ data: Data) -> Double {
        func threadCPU() -> Double {
            var spec = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
            return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
        }
        var best = Double.infinity
        for _ in 0..<5 {
            let start = threadCPU()
            let manifest = try? RegistryManifest.decode(data, source: "bench.json")
            best = min(best, threadCPU() - start)
            if manifest == nil { return .nan }
        }
        return best
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func format(_ duration: Duration) -> String {
        String(format: "%.1f ms", seconds(duration) * 1e3)
    }
}
