import Foundation

/// `swift run -c release flagstaff-bench [core] [settings] [console] [terminal] [cli] [remote] [unleash] [unleash-client] [flagd] [manifest] [history] [serve] [store] [idle-streams] [hostile-servers]`
/// (and `console-bulk`, part of `console`, `serve-link` and `serve-stalled`, part of `serve`, `serve-stalled-readers`,
/// its first case alone, and `slow-fetches`, part of `hostile-servers`): runs the named
/// benchmarks, or all of them when none is named, and prints the figures.
@main
enum BenchMain {
    static let areas = [
        "core", "settings", "console", "console-bulk", "terminal", "cli", "remote", "unleash", "unleash-client",
        "manifest", "history", "serve", "serve-link", "serve-stalled", "serve-stalled-readers", "store",
        "idle-streams", "hostile-servers", "slow-fetches", "flagd",
    ]

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let usage =
            "usage: flagstaff-bench [area …]   (all areas when none is named)\nareas: \(areas.joined(separator: " "))"
        if arguments.contains(where: { $0 == "--help" || $0 == "-h" || $0 == "help" }) {
            print(usage)
            return
        }
        // A mistyped area would otherwise run nothing and exit 0.
        if let unknown = arguments.first(where: { !areas.contains($0) }) {
            FileHandle.standardError.write(Data("flagstaff-bench: unknown area '\(unknown)'\n\(usage)\n".utf8))
            exit(2)
        }
        let requested = Set(arguments)
        func wants(_ name: String) -> Bool { requested.isEmpty || requested.contains(name) }
        if wants("core") { CoreBench.run() }
        if wants("settings") { SettingBench.run() }
        if wants("console") { ConsoleBench.run() }
        if wants("terminal") { TerminalBench.run() }
        if wants("cli") { CLIBench.run() }
        if wants("remote") { RemoteBench.run() }
        if wants("unleash") { UnleashBench.run() }
        if wants("unleash-client") { UnleashClientBench.run() }
        if wants("flagd") { FlagdBench.run() }
        if wants("manifest") { ManifestBench.run() }
        if wants("history") { HistoryBench.run() }
        #if Server
        if wants("serve") { ServeBench.run() }
        #else
        if requested.contains("serve") { print("serve: this build has no server (the Server trait is off)") }
        #endif
        // Part of `serve`: only the Swift link client's two rows, when named.
        #if Server
        if requested.contains("serve-link") { ServeBench.runLink() }
        // Part of `serve` too (stalled and greedy clients, the server as its own process); about 3 minutes.
        if wants("serve-stalled") { ServeStalledBench.run() }
        // Its first case alone (1,000 clients that never read a large body), about a minute for each build.
        if requested.contains("serve-stalled-readers") { ServeStalledBench.run(readersOnly: true) }
        #else
        if requested.contains("serve-link") { print("serve-link: this build has no server (the Server trait is off)") }
        #endif
        if wants("store") { StoreBench.run() }
        if wants("idle-streams") { StreamIdleBench.run() }
        if wants("hostile-servers") { HostileServerBench.run() }
        // Part of `hostile-servers`: only the CPU of fetches waiting on slow or silent servers, when named.
        if requested.contains("slow-fetches") { HostileServerBench.runSlowFetches() }
        // Part of `console`; alone when named, for profiling.
        if requested.contains("console-bulk") {
            ConsoleBench.runBulkChange(manifest: BenchManifest.make(flagCount: 100_000), flagCount: 100_000)
        }
    }
}
