import Flagstaff
import Foundation

/// The issue-27 budget for a real third-party SDK: the Python `UnleashClient` in its streaming mode sees a
/// `flagstaff set` made in another process within 200 ms (median of 10), timed from the start of `flagstaff set`
/// (the process start included, as QA's terminal has it). Skipped, saying why, without python3 or the SDK
/// (`.ci/run` installs it; `pip install UnleashClient==6.9.1`).
enum ServePythonBench {
    /// Runs ten changes against a `flagstaff serve` of 1,000 flags and prints the latencies.
    static func run(flagstaff: URL, scratch: URL) {
        let label = "  Python UnleashClient (streaming) sees flagstaff set, from its start"
        guard python(["-c", "import UnleashClient"]) == 0 else {
            return print("\(label): not measured (python3 with UnleashClient 6.9.1 is needed)")
        }
        guard let manifest = try? BenchManifest.writeTemporaryFile(flagCount: 1_000) else {
            return print("\(label): cannot write the manifest")
        }
        defer { try? FileManager.default.removeItem(atPath: manifest) }
        let folder = scratch.appendingPathComponent("python")
        guard let served = ServeBench.launchServe(flagstaff, arguments: ["--manifest", manifest], scratch: folder)
        else { return print("\(label): flagstaff serve did not start") }
        defer { ServeBench.stop(served.process) }
        let key = ServeStreamBench.booleanKey(of: BenchManifest.make(flagCount: 1_000))
        let script = folder.appendingPathComponent("latency.py")
        let output = folder.appendingPathComponent("latency.json")
        guard (try? Data(Self.script.utf8).write(to: script)) != nil else {
            return print("\(label): cannot write the script")
        }
        let status = python([
            script.path, flagstaff.path, "http://127.0.0.1:\(served.port)", manifest,
            folder.appendingPathComponent("store.json").path, key, output.path,
        ])
        guard status == 0, let data = try? Data(contentsOf: output),
            let milliseconds = (try? JSONSerialization.jsonObject(with: data)) as? [Double], !milliseconds.isEmpty
        else { return print("\(label): the script failed (status \(status))") }
        let sorted = milliseconds.sorted()
        let median = (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
        print(
            String(
                format: "%@: median %.1f ms, max %.1f ms (%d changes)   [budget median ≤ 200 ms]", label, median,
                sorted.last ?? .nan, sorted.count))
    }

    /// Runs `python3` with `arguments`, output discarded; its exit status, or -1 when it cannot start.
    private static func python(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Connects the SDK in streaming mode, then flips `key` ten times with `flagstaff set` and writes the
    /// milliseconds from each command's start until `is_enabled` gives the new value, as a JSON array.
    static let script = #"""
        import json, logging, subprocess, sys, tempfile, time
        logging.disable(logging.CRITICAL)
        from UnleashClient import UnleashClient

        flagstaff, base, manifest, store, key, output = sys.argv[1:7]
        client = UnleashClient(url=base + "/api", app_name="bench-python-streaming", refresh_interval=3600,
                               disable_metrics=True, disable_registration=True,
                               cache_directory=tempfile.mkdtemp(), experimental_mode={"type": "streaming"})
        client.initialize_client()
        time.sleep(1.0)
        latencies = []
        for index in range(10):
            want = client.is_enabled(key) is False
            start = time.monotonic()
            command = subprocess.Popen([flagstaff, "set", "--manifest", manifest, "--store", store, key,
                                        "on" if want else "off"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
            while client.is_enabled(key) != want and time.monotonic() - start < 10:
                time.sleep(0.001)
            latencies.append((time.monotonic() - start) * 1000)
            command.wait()
            time.sleep(0.1)
        client.destroy()
        with open(output, "w") as handle:
            json.dump(latencies, handle)
        """#
}
