import Flagstaff
import FlagstaffTerminalDriver
import Foundation

/// CLI benchmark: wall time of `flagstaff` commands, run as a user runs them (a new process each time), on a
/// small manifest and on a generated 100,000-flag manifest; the last two rows import an override for every
/// flag and then read a flag with that store (the override file reader on 100,000 entries, twice), then save that
/// store as a profile and show and diff it, with the big manifest and with the demo registry (every key undeclared,
/// the case that was quadratic). Needs
/// the `flagstaff` product built next to this benchmark (same `swift build` configuration); skipped otherwise.
enum CLIBench {
    static func run(flagCount: Int = 100_000, repetitions: Int = 5) {
        print("== cli: flagstaff commands as processes ==")
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("flagstaff")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            print("cli: skipped, \(binary.path) is not built (swift build --product flagstaff)")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-cli-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let big = directory.appendingPathComponent("big.json")
            try writeManifest(flagCount: flagCount, to: big)
            let store = directory.appendingPathComponent("store.json").path
            let fullImport = directory.appendingPathComponent("all-on.json")
            let everyKey = (0..<max(1, flagCount / 1_000)).flatMap { g in (0..<1_000).map { "g\(g).flag\($0)" } }
            try OverrideFileFormat.encode(
                Dictionary(uniqueKeysWithValues: everyKey.map { ($0, OverrideValue.on) })
            )
            .write(to: fullImport)
            let cases: [(String, [String])] = [
                ("demo: get", ["get", "blueText", "--demo"]),
                ("demo: list --json", ["list", "--json", "--demo"]),
                ("\(flagCount) flags: get", ["get", "g7.flag7", "--manifest", big.path]),
                ("\(flagCount) flags: set", ["set", "g7.flag7", "on", "--manifest", big.path]),
                ("\(flagCount) flags: list --json", ["list", "--json", "--manifest", big.path]),
                ("\(flagCount) flags: list --search", ["list", "--search", "flag 99", "--manifest", big.path]),
                (
                    "\(flagCount) flags: import \(flagCount) overrides",
                    ["import", fullImport.path, "--manifest", big.path]
                ),
                (
                    "\(flagCount) flags: get, \(flagCount) overrides stored",
                    ["get", "g7.flag7", "--manifest", big.path]
                ),
                ("\(flagCount) flags: profile save", ["profile", "save", "all", "--manifest", big.path]),
                ("\(flagCount) flags: profile show", ["profile", "show", "all", "--manifest", big.path]),
                ("demo: profile show, \(flagCount) undeclared keys", ["profile", "show", "all", "--demo"]),
                ("\(flagCount) flags: profile diff", ["profile", "diff", "all", "--manifest", big.path]),
            ]
            for (name, arguments) in cases {
                var times: [Duration] = []
                for _ in 0..<repetitions {
                    times.append(try timeProcess(binary, arguments + ["--store", store]))
                }
                times.sort()
                print(
                    "\(name): median \(milliseconds(times[times.count / 2])), min \(milliseconds(times[0])) over \(repetitions) runs"
                )
            }
        } catch {
            print("cli: failed: \(error)")
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let value = Double(duration.components.seconds) * 1_000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.1f ms", value)
    }

    /// Spawned and reaped directly: Foundation's `waitUntilExit` notices the end on a polling interval, which
    /// rounded every figure up to the next multiple of about 50 ms.
    private static func timeProcess(_ binary: URL, _ arguments: [String]) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        ProcessSpawn.wait(for: try ProcessSpawn.spawn([binary.path] + arguments))
        return clock.now - start
    }

    private static func writeManifest(flagCount: Int, to url: URL) throws {
        let perGroup = 1_000
        let groups = (0..<max(1, flagCount / perGroup)).map { g in
            RegistryManifest.Group(
                key: "g\(g)",
                flags: (0..<perGroup).map { i in
                    RegistryManifest.Flag(
                        key: "g\(g).flag\(i)", description: "Flag number \(i) of group \(g)", default: i % 2 == 0)
                })
        }
        try JSONEncoder().encode(RegistryManifest(name: "CLI bench", groups: groups)).write(to: url)
    }
}
