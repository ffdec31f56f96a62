import Flagstaff
import FlagstaffTerminalDriver
import Foundation

/// The real thing: the built `flagstaff` opening a generated 100,000-flag manifest in tmux.
///
/// - start to first frame: from starting the tmux session to the first capture that shows the first group
///   and the footer (reading, decoding and building included);
/// - search keystroke to redrawn screen: from `send-keys` to the first capture that shows the new query;
/// - the console's resident memory after the searches.
/// Both timings include tmux's own round trips (a process per `send-keys` and per `capture-pane`); the same
/// round trips against `cat` are printed as the baseline to subtract.
///
/// Needs tmux and a release build of `flagstaff` beside this executable (`swift build -c release`).
enum TerminalBench {
    static func run(flagCount: Int = 100_000) {
        print("== terminal: flagstaff console in tmux, \(flagCount) flags ==")
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("flagstaff").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("terminal: not measured (no \(binary); run `swift build -c release` first)")
            return
        }
        let manifestPath: String
        do {
            manifestPath = try BenchManifest.writeTemporaryFile(flagCount: flagCount)
        } catch {
            print("terminal: cannot write the manifest: \(error)")
            return
        }
        let storePath = NSTemporaryDirectory() + "flagstaff-bench-\(getpid())-store.json"
        defer {
            unlink(manifestPath)
            unlink(storePath)
        }
        let firstGroup = BenchManifest.make(flagCount: 100).groups[0].label ?? ""
        let command = "exec \(binary) console --manifest \(manifestPath) --store \(storePath)"
        do {
            var startTimes: [Duration] = []
            var baselineStarts: [Duration] = []
            for _ in 0..<5 {
                startTimes.append(
                    try timeToScreen(command: command) { $0.contains(firstGroup) && $0.contains("q quit") })
                baselineStarts.append(try timeToScreen(command: "echo ready; exec cat") { $0.contains("ready") })
            }
            print(
                "start to first frame: median \(format(median(startTimes))), min \(format(startTimes.min() ?? .zero))   [budget 300 ms]"
            )
            print("  baseline (tmux start + capture, `echo`): median \(format(median(baselineStarts)))")

            let frameLog = NSTemporaryDirectory() + "flagstaff-bench-\(getpid())-frames.log"
            defer { unlink(frameLog) }
            let session = try TmuxSession(
                command: command, width: 120, height: 40,
                environment: ["FLAGSTAFF_FRAME_LOG": frameLog])
            defer { session.kill() }
            _ = try poll(session, timeout: .seconds(30)) { $0.contains(firstGroup) && $0.contains("q quit") }
            Thread.sleep(forTimeInterval: 1.5)  // the console builds the search index in the background
            try session.sendKeys("/")
            _ = try poll(session, timeout: .seconds(10)) { $0.text(line: 1).contains("/ ▏") }
            let framesBefore = frameTimes(frameLog).count
            var keystrokes: [Duration] = []
            var labelled: [(Duration, String)] = []
            for query in ["rounded", "scroll", "payment retry", "net"] {
                var typed = ""
                for character in query {
                    typed.append(character)
                    let expected = "/ " + typed + "▏"  // the search field with its cursor (UTF-8 glyphs)
                    keystrokes.append(
                        try timeKey(session, send: { try session.type(String(character)) }) {
                            $0.text(line: 1).contains(expected)
                        })
                    labelled.append((keystrokes[keystrokes.count - 1], "typed \"\(typed)\""))
                }
                for _ in query {
                    typed.removeLast()
                    let expected = "/ " + typed + "▏"
                    keystrokes.append(
                        try timeKey(session, send: { try session.sendKeys("BSpace") }) {
                            $0.text(line: 1).contains(expected)
                        })
                    labelled.append((keystrokes[keystrokes.count - 1], "erased to \"\(typed)\""))
                }
            }
            let inConsole = frameTimes(frameLog).dropFirst(framesBefore).sorted()
            // The same queries typed at a person's pace (one key every 60 ms) with no capture in between:
            // the console's own figures without tmux clients competing for the two cores.
            let pacedBefore = frameTimes(frameLog).count
            var pacedLabels: [String] = []
            for query in ["rounded", "scroll", "payment retry", "net"] {
                var typed = ""
                for key in query.map({ String($0) }) + query.map({ _ in "BSpace" }) {
                    if key == "BSpace" {
                        try session.sendKeys(key)
                        typed.removeLast()
                    } else {
                        try session.type(key)
                        typed += key
                    }
                    pacedLabels.append("\"\(typed)\"")
                    Thread.sleep(forTimeInterval: 0.06)
                }
                // Back to the tree and into the search field again.
                for (key, label) in [("Escape", "Esc (back to the tree)"), ("/", "/ (search field)")] {
                    try session.sendKeys(key)
                    pacedLabels.append(label)
                    Thread.sleep(forTimeInterval: 0.06)
                }
            }
            Thread.sleep(forTimeInterval: 0.3)
            let pacedFrames = Array(frameTimes(frameLog).dropFirst(pacedBefore))
            let paced = pacedFrames.sorted()
            let pacedSlowest =
                pacedFrames.count == pacedLabels.count
                ? zip(pacedFrames, pacedLabels).sorted { $0.0 > $1.0 }.prefix(3).map { "\(format($0.0)) \($0.1)" } : []
            let rss = (try? session.panePID()).flatMap(residentMegabytes) ?? "?"
            try session.sendKeys("Escape")
            try session.sendKeys("q")

            let echo = try TmuxSession(command: "exec cat", width: 120, height: 40)
            defer { echo.kill() }
            var baselineKeys: [Duration] = []
            var echoed = ""
            for character in "roundedscrollpayment" {
                echoed.append(character)
                let expected = echoed
                baselineKeys.append(
                    try timeKey(echo, send: { try echo.type(String(character)) }) { $0.contains(expected) })
            }
            keystrokes.sort()
            print(
                "search keystroke to redrawn screen: median \(format(median(keystrokes))), p99 \(format(keystrokes[min(keystrokes.count - 1, keystrokes.count * 99 / 100)])), max \(format(keystrokes.last ?? .zero)) over \(keystrokes.count) keys   [budget 5 ms / 16 ms]"
            )
            print(
                "  slowest: "
                    + labelled.sorted { $0.0 > $1.0 }.prefix(3).map { "\(format($0.0)) \($0.1)" }.joined(
                        separator: ", "))
            print("  baseline (send-keys + capture against `cat`): median \(format(median(baselineKeys)))")
            if !inConsole.isEmpty {
                print(
                    "  inside the console (key read → frame written to the pty, FLAGSTAFF_FRAME_LOG): median \(format(inConsole[inConsole.count / 2])), p99 \(format(inConsole[min(inConsole.count - 1, inConsole.count * 99 / 100)])), max \(format(inConsole.last ?? .zero)) over \(inConsole.count) frames"
                )
            }
            if !paced.isEmpty {
                print(
                    "typed at 60 ms per key, no captures (FLAGSTAFF_FRAME_LOG): median \(format(paced[paced.count / 2])), p99 \(format(paced[min(paced.count - 1, paced.count * 99 / 100)])), max \(format(paced.last ?? .zero)) over \(paced.count) frames   [budget 5 ms / 16 ms]"
                )
                if !pacedSlowest.isEmpty { print("  slowest: " + pacedSlowest.joined(separator: ", ")) }
            }
            print("console resident memory after the searches: \(rss) MB   [budget 150 MB]")
        } catch {
            print("terminal: \(error)")
        }
    }

    /// Starts a session and times until a capture satisfies `ready`.
    private static func timeToScreen(command: String, ready: (TmuxScreen) -> Bool) throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let session = try TmuxSession(command: command, width: 120, height: 40)
        defer { session.kill() }
        _ = try poll(session, timeout: .seconds(30), until: ready)
        return clock.now - start
    }

    /// Sends a key and times until a capture satisfies `done`.
    private static func timeKey(_ session: TmuxSession, send: () throws -> Void, done: (TmuxScreen) -> Bool) throws
        -> Duration
    {
        let clock = ContinuousClock()
        let start = clock.now
        try send()
        _ = try poll(session, timeout: .seconds(10), until: done)
        return clock.now - start
    }

    private static func poll(_ session: TmuxSession, timeout: Duration, until predicate: (TmuxScreen) -> Bool) throws
        -> TmuxScreen
    {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var screen = try session.capture()
        while !predicate(screen) {
            if clock.now > deadline { throw TmuxError.timeout(what: "the expected screen", lastScreen: screen.text) }
            // Each capture is a tmux client process: a short pause leaves the two cores to the console.
            Thread.sleep(forTimeInterval: 0.001)
            screen = try session.capture()
        }
        return screen
    }

    /// The frame times the console logged (one line of microseconds per frame).
    private static func frameTimes(_ path: String) -> [Duration] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { Int64($0).map { Duration.microseconds($0) } }
    }

    private static func residentMegabytes(_ pid: pid_t) -> String? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return String(format: "%.0f", kb / 1024)
    }

    private static func median(_ samples: [Duration]) -> Duration {
        samples.isEmpty ? .zero : samples.sorted()[samples.count / 2]
    }

    private static func format(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return String(format: "%.2f ms", ms)
    }
}
