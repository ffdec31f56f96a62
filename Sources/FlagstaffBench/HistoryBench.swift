import Flagstaff
import FlagstaffTerminalDriver
import Foundation

/// History benchmark (issue 12): what journaling adds to a file-store write, and reading a 100,000-line journal
/// (the work of `flagstaff history`), with `flagstaff history` itself when the release binary is beside this one.
///
/// Budget: `history` over a 100,000-line journal ≤ 300 ms; a journal line adds ≤ 20 % to a file-store write.
enum HistoryBench {
    static func run() {
        print("== history ==")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-history-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        writeOverhead(directory)
        readBench(directory)
    }

    /// File-store writes with and without the journal, interleaved in rounds so load changes hit both alike.
    private static func writeOverhead(_ directory: URL) {
        guard
            let journaled = try? FileOverrideStore(url: directory.appendingPathComponent("journaled.json")),
            let plain = try? FileOverrideStore(url: directory.appendingPathComponent("plain.json"), journal: nil)
        else { return print("cannot create the stores in \(directory.path)") }
        // A store of 200 overrides, as a QA device might hold.
        let initial = Dictionary(uniqueKeysWithValues: (0..<200).map { ("flag.\($0)", OverrideEdit.set(.on)) })
        _ = try? journaled.write(OverrideChange(initial))
        _ = try? plain.write(OverrideChange(initial))
        var withJournal: [Duration] = []
        var without: [Duration] = []
        let clock = ContinuousClock()
        for round in 0..<30 {
            for (store, samples) in [(journaled, 0), (plain, 1)] {
                var times: [Duration] = []
                for index in 0..<10 {
                    let value: OverrideValue = (round + index).isMultiple(of: 2) ? .on : .off
                    let start = clock.now
                    _ = try? store.write(["flag.\(index)": .set(value)])
                    times.append(start.duration(to: clock.now))
                }
                if samples == 0 { withJournal += times } else { without += times }
            }
        }
        // The append alone (no fsync, so no disk noise): what the journal adds to each write.
        if let journal = try? journaled.journal() {
            var appends: [Duration] = []
            for index in 0..<1000 {
                let entry = JournalEntry(
                    time: Date(), change: "bench\(index)", key: "flag.\(index % 10)", old: .on, new: .off,
                    origin: .app, user: "qa", pid: 1, command: "flagstaff-bench history")
                let start = clock.now
                try? journal.append([entry])
                appends.append(start.duration(to: clock.now))
            }
            print(
                String(
                    format: "journal append alone (one line): %.1f µs median of 1000",
                    milliseconds(median(appends)) * 1000))
        }
        let a = median(withJournal)
        let b = median(without)
        print(
            String(
                format:
                    "file-store write, 200 overrides: %.3f ms with the journal, %.3f ms without (+%.1f %%; budget ≤ 20 %%)",
                milliseconds(a), milliseconds(b), (milliseconds(a) / milliseconds(b) - 1) * 100))
    }

    /// Reads (and groups, and filters by a glob) a 100,000-line journal.
    private static func readBench(_ directory: URL) {
        let options = JournalOptions(maxBytes: 64 << 20)  // no rotation: 100,000 lines in one file
        guard let store = try? FileOverrideStore(url: directory.appendingPathComponent("big.json"), journal: options),
            let journal = try? store.journal()
        else { return }
        let time = Date()
        for change in 0..<10_000 {
            let id = String(format: "%016x", change)
            let entries = (0..<10).map { key in
                JournalEntry(
                    time: time.addingTimeInterval(Double(change)), change: id, key: "group\(key).flag\(change % 500)",
                    old: key.isMultiple(of: 2) ? nil : .off, new: change.isMultiple(of: 3) ? nil : .on,
                    origin: .cli, user: "qa", pid: 4242, command: "flagstaff set group\(key).flag on")
            }
            try? journal.append(entries)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: journal.url.path)[.size] as? Int) ?? 0
        let clock = ContinuousClock()
        var samples: [Duration] = []
        var count = 0
        for _ in 0..<5 {
            let start = clock.now
            let contents = journal.read()
            let changes = contents.changes
            count = contents.entries.count
            _ = changes.reversed().filter { $0.entries.contains { $0.key.hasPrefix("group3.") } }.count
            samples.append(start.duration(to: clock.now))
        }
        print(
            String(
                format: "read + group a %d-line journal (%.1f MB): %.1f ms median of 5 (budget for `history` ≤ 300 ms)",
                count, Double(size) / 1e6, milliseconds(median(samples))))
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("flagstaff")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            return print("flagstaff history: build the flagstaff product in release to time the command")
        }
        for arguments in [["history"], ["history", "--key", "group3.*"], ["history", "--json"]] {
            var runs: [Duration] = []
            for _ in 0..<5 {
                // Spawned and reaped directly: Foundation's `waitUntilExit` notices the end on a polling interval,
                // which rounds every figure up.
                let start = clock.now
                guard
                    let pid = try? ProcessSpawn.spawn(
                        [binary.path] + arguments + ["--demo", "--store", store.url.path])
                else { return }
                ProcessSpawn.wait(for: pid)
                runs.append(start.duration(to: clock.now))
            }
            print(
                String(
                    format: "flagstaff %@ (100,000 lines, output to /dev/null): %.0f ms median of 5, whole process",
                    arguments.joined(separator: " "), milliseconds(median(runs))))
        }
    }

    private static func median(_ samples: [Duration]) -> Duration {
        let sorted = samples.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}
