import Flagstaff
import FlagstaffFlagd
import Foundation

/// flagd in-process evaluation benchmark: the median CPU time of one ``FlagdDefinitions/evaluate`` for a static
/// flag, an `if`/`in`/`var` rule, `fractional` (versions 2 and 3) and `sem_ver`, beside the reference evaluator
/// (openfeature-flagd-core, through `scripts/flagd-reference.py` in `.build-python/flagd-core-1` and `-2`) on the
/// same definitions and context in the same run, and two threads at once beside one.
///
/// Times are CPU time of the measuring thread (median of seven rounds; the Python side uses `time.thread_time`).
/// Build in release: `swift run -c release flagstaff-bench flagd`. flagd's published Go figures, for scale: 1.5–1.8 µs
/// static, 11 µs targeting, 13 µs fractional.
enum FlagdBench {
    private struct Case {
        let label: String
        let flag: String
        let bucketing: FlagdBucketing
        /// The issue's budget for the median, in nanoseconds.
        let budget: Double
    }

    static let definitions = """
        {"flags": {
          "static": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "on"},
          "rule": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
                   "targeting": {"if": [{"in": [{"var": "country"}, ["US", "CA", "DE", "FR"]]}, "on", "off"]}},
          "fractional": {"state": "ENABLED", "variants": {"a": "a", "b": "b", "c": "c"}, "defaultVariant": "a",
                         "targeting": {"fractional": [{"cat": [{"var": "$flagd.flagKey"}, {"var": "targetingKey"}]},
                                                      ["a", 50], ["b", 30], ["c", 20]]}},
          "shorthand": {"state": "ENABLED", "variants": {"a": "a", "b": "b"}, "defaultVariant": "a",
                        "targeting": {"fractional": [["a", 50], ["b", 50]]}},
          "semver": {"state": "ENABLED", "variants": {"new": "new", "old": "old"}, "defaultVariant": "old",
                     "targeting": {"if": [{"sem_ver": [{"var": "version"}, ">=", "2.1.0"]}, "new", "old"]}}
        }}
        """

    static let context: [String: JSONSettingValue] = [
        "targetingKey": .string("user-48213"), "country": .string("DE"), "version": .string("2.3.1"),
        "email": .string("someone@example.com"),
    ]

    private static let cases = [
        Case(label: "static flag", flag: "static", bucketing: .version2, budget: 150),
        Case(label: "if/in/var rule", flag: "rule", bucketing: .version2, budget: 1_000),
        Case(label: "fractional (cat bucketing, v2)", flag: "fractional", bucketing: .version2, budget: 1_300),
        Case(label: "fractional (shorthand, v3)", flag: "shorthand", bucketing: .version3, budget: 1_300),
        Case(label: "sem_ver rule", flag: "semver", bucketing: .version2, budget: 1_500),
    ]

    static func run(iterations: Int = 1_000_000) {
        print("== flagd in-process evaluation ==")
        print("load average: \(loadAverage())")
        var loaded: [FlagdBucketing: FlagdDefinitions] = [:]
        do {
            for bucketing in [FlagdBucketing.version2, .version3] {
                loaded[bucketing] = try FlagdDefinitions(json: Data(definitions.utf8), bucketing: bucketing)
            }
        } catch {
            print("flagd: cannot load the benchmark definitions: \(error)")
            return
        }
        var reference: [FlagdBucketing: (engine: String, seconds: [String: Double], note: String?)] = [:]
        for bucketing in [FlagdBucketing.version2, .version3] {
            reference[bucketing] = referenceFigures(bucketing, flags: cases.filter { $0.bucketing == bucketing })
        }
        print(
            pad("case", 34) + pad("median", 11) + pad("budget", 10) + pad("answer", 14) + pad("reference", 14)
                + "speed-up")
        for benchCase in cases {
            guard let definitions = loaded[benchCase.bucketing] else { continue }
            let median = measure(definitions, benchCase.flag, iterations: iterations)
            let answer = definitions.evaluate(benchCase.flag, context: context)
            var row = pad(benchCase.label, 34) + pad(String(format: "%.0f ns", median), 11)
            row += pad(String(format: "%.0f ns", benchCase.budget) + (median <= benchCase.budget ? "" : "!"), 10)
            row += pad("\(answer.variant ?? "-")/\(answer.reason)", 14)
            if let seconds = reference[benchCase.bucketing]?.seconds[benchCase.flag] {
                let theirs = seconds * 1e9 / Double(referenceIterations)
                row += pad(String(format: "%.0f ns", theirs), 14) + String(format: "%.0fx", theirs / median)
            } else {
                row += "not measured"
            }
            print(row)
        }
        printParallelRows(loaded[.version2]!, iterations: iterations)
        for bucketing in [FlagdBucketing.version2, .version3] {
            guard let figures = reference[bucketing] else { continue }
            print("reference (\(bucketing)): \(figures.note ?? figures.engine)")
        }
    }

    /// The median over seven rounds of CPU nanoseconds per evaluation.
    private static func measure(_ definitions: FlagdDefinitions, _ flag: String, iterations: Int) -> Double {
        var rounds: [Double] = []
        var checksum = 0
        for _ in 0..<7 {
            let start = threadCPUNanoseconds()
            for _ in 0..<iterations {
                checksum &+= definitions.evaluate(flag, context: context).variant?.utf8.count ?? 0
            }
            rounds.append((threadCPUNanoseconds() - start) / Double(iterations))
        }
        if checksum == -1 { print("unreachable checksum") }
        return rounds.sorted()[rounds.count / 2]
    }

    /// Two threads evaluating the same definitions at once, each with a context of its own, beside one thread.
    private static func printParallelRows(_ definitions: FlagdDefinitions, iterations: Int) {
        let contexts = (0..<2).map { index in context.merging(["targetingKey": .string("user-\(index)")]) { $1 } }
        for (label, flag) in [("static flag", "static"), ("if/in/var rule", "rule"), ("fractional", "fractional")] {
            let body: @Sendable (Int) -> Int = { thread in
                definitions.evaluate(flag, context: contexts[thread]).variant?.utf8.count ?? 0
            }
            let single = ParallelRun.measure(threads: 1, iterations: iterations, body)
            let double = ParallelRun.measure(threads: 2, iterations: iterations / 2, body)
            print(
                pad("\(label), 2 threads at once", 34)
                    + String(
                        format:
                            "%.0f ns CPU per evaluation per thread; 1 thread: %.0f ns (CPU 2/1: %.2fx; wall %.0f ns)",
                        double.cpu, single.cpu, double.cpu / single.cpu, double.wall))
        }
    }

    // MARK: - Reference

    private static let referenceIterations = 20_000

    /// Runs the reference over the same definitions and context: CPU seconds for `referenceIterations`
    /// evaluations of each flag.
    private static func referenceFigures(_ bucketing: FlagdBucketing, flags: [Case]) -> (
        engine: String, seconds: [String: Double], note: String?
    ) {
        let root = packageRoot()
        let environment = bucketing == .version2 ? "flagd-core-1" : "flagd-core-2"
        let python = root.appendingPathComponent(".build-python/\(environment)/bin/python")
        let script = root.appendingPathComponent("scripts/flagd-reference.py")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            return ("", [:], "not measured: no \(python.path) (.ci/run makes it)")
        }
        var lines = [#"{"definitions": \#(definitions)}"#.replacingOccurrences(of: "\n", with: " ")]
        let contextJSON = JSONSettingValue.object(context).overrideValue.json
        for benchCase in flags {
            lines.append(
                #"{"bench": "\#(benchCase.flag)", "context": \#(contextJSON), "count": \#(referenceIterations)}"#)
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [script.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
            try input.fileHandleForWriting.close()
        } catch {
            return ("", [:], "not measured: \(error)")
        }
        let answer = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let answers = String(decoding: answer, as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSettingValue.read(Data($0.utf8))
        }
        guard process.terminationStatus == 0, answers.count == lines.count + 1 else {
            return ("", [:], "not measured: the reference exited \(process.terminationStatus)")
        }
        var seconds: [String: Double] = [:]
        for (benchCase, line) in zip(flags, answers.dropFirst(2)) {
            if case .number(let value)? = line["seconds"] { seconds[benchCase.flag] = value }
        }
        return (answers[0]["engine"]?.stringValue ?? "openfeature-flagd-core", seconds, nil)
    }

    private static func packageRoot() -> URL {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        if FileManager.default.fileExists(atPath: here.appendingPathComponent("scripts/flagd-reference.py").path) {
            return here
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    private static func loadAverage() -> String {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
            .joined(separator: " ") ?? "unknown"
    }

    private static func threadCPUNanoseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e9 + Double(spec.tv_nsec)
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }
}
