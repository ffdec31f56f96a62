import Flagstaff
import FlagstaffUnleash
import Foundation

/// Unleash local evaluation benchmark: evaluations per second of ``UnleashEngine`` for a simple flag, a flag with
/// constraints, a flexible rollout and a variant lookup, printed beside the reference engine (yggdrasil-engine
/// from PyPI, through `scripts/unleash-bench.py`) measured in the same run on the same state and contexts.
///
/// Times are CPU time of the measuring thread (best of three rounds), on both sides. Build in release for meaningful
/// figures: `swift run -c release flagstaff-bench unleash`.
enum UnleashBench {
    private struct Case {
        let label: String
        let flag: String
        let variant: Bool
        /// Iterations are divided by this (slow cases).
        var scale = 1
        /// Evaluate with ``agentContextJSON`` (a long `agent` property) instead of ``contextJSON``.
        var longAgent = false
    }

    private static let state = """
        {"version": 2,
         "segments": [{"id": 1, "constraints": [
            {"contextName": "version", "operator": "SEMVER_GTE", "value": "2.0.0"}]}],
         "features": [
           {"name": "bench.simple", "enabled": true, "strategies": [{"name": "default"}]},
           {"name": "bench.constraints", "enabled": true, "strategies": [{"name": "default", "segments": [1],
              "constraints": [
                {"contextName": "environment", "operator": "IN", "values": ["production", "staging"]},
                {"contextName": "email", "operator": "STR_ENDS_WITH", "values": ["@example.com"], "caseInsensitive": true}]}]},
           {"name": "bench.rollout", "enabled": true, "strategies": [{"name": "flexibleRollout",
              "parameters": {"rollout": "50", "stickiness": "default", "groupId": "bench.rollout"}}]},
           {"name": "bench.variants", "enabled": true, "strategies": [{"name": "flexibleRollout",
              "parameters": {"rollout": "100", "stickiness": "default", "groupId": "bench.variants"}}],
            "variants": [
              {"name": "red", "weight": 33, "stickiness": "default", "payload": {"type": "string", "value": "r"}},
              {"name": "green", "weight": 33, "stickiness": "default", "payload": {"type": "string", "value": "g"}},
              {"name": "blue", "weight": 34, "stickiness": "default", "payload": {"type": "string", "value": "b"}}]},
           {"name": "bench.regex", "enabled": true, "strategies": [{"name": "default", "constraints": [
              {"contextName": "email", "operator": "REGEX", "value": "^[a-z0-9._%+-]+@example\\\\.(com|org)$",
               "caseInsensitive": true}]}]},
           {"name": "bench.regex.pathological", "enabled": true, "strategies": [{"name": "default", "constraints": [
              {"contextName": "agent", "operator": "REGEX", "value": "(a+)+$"}]}]}
         ]}
        """

    private static let contextJSON = """
        {"userId": "user-48213", "sessionId": "session-9", "environment": "production", "appName": "bench",
         "properties": {"email": "Someone@Example.com", "version": "2.3.1"}}
        """

    /// The same context with an `agent` of 1,000 `a`s and a `!`: `(a+)+$` fails on it, after exponential time in a
    /// backtracking engine. A context of its own, so the other cases (and the reference's JSON work) are unchanged.
    private static let agentContextJSON = contextJSON.replacingOccurrences(
        of: "\"version\": \"2.3.1\"}",
        with: "\"version\": \"2.3.1\", \"agent\": \"\(String(repeating: "a", count: 1_000))!\"}")

    private static let cases = [
        Case(label: "simple flag (isEnabled)", flag: "bench.simple", variant: false),
        Case(label: "3 constraints via a segment (isEnabled)", flag: "bench.constraints", variant: false),
        Case(label: "flexible rollout 50% (isEnabled)", flag: "bench.rollout", variant: false),
        Case(label: "variant lookup (variant)", flag: "bench.variants", variant: true),
        Case(label: "REGEX, e-mail pattern (isEnabled)", flag: "bench.regex", variant: false),
        Case(
            label: "REGEX (a+)+$ on 1,001 chars (isEnabled)", flag: "bench.regex.pathological", variant: false,
            scale: 1_000,
            longAgent: true),
    ]

    /// Runs the benchmark and prints one row per case.
    static func run(iterations: Int = 2_000_000) {
        print("== unleash local evaluation ==")
        let engine = UnleashEngine()
        let context: UnleashContext
        let agentContext: UnleashContext
        do {
            try engine.takeState(Data(state.utf8))
            context = try UnleashContext.decode(json: Data(contextJSON.utf8))
            agentContext = try UnleashContext.decode(json: Data(agentContextJSON.utf8))
        } catch {
            print("unleash: cannot load the benchmark state: \(error)")
            return
        }
        let reference = referenceFigures()
        print(
            pad("case", 42) + pad("flagstaff", 14) + pad("evals/s", 14) + pad("ygg native", 14)
                + pad("ygg python", 14) + "speed-up vs native")
        for benchCase in cases {
            let (nanoseconds, answer) = measure(
                benchCase, engine: engine, context: benchCase.longAgent ? agentContext : context,
                iterations: max(1, iterations / benchCase.scale))
            let theirs = reference.results[benchCase.label]
            var row = pad(benchCase.label, 42) + pad(String(format: "%.0f ns", nanoseconds), 14)
            row += pad(String(format: "%.2fM", 1e3 / nanoseconds), 14)
            if let theirs {
                row +=
                    pad(String(format: "%.0f ns", theirs.native), 14)
                    + pad(String(format: "%.0f ns", theirs.python), 14)
                row += String(format: "%.1fx", theirs.native / nanoseconds)
                if theirs.answer != answer {
                    row += "   ANSWERS DIFFER: flagstaff \(answer), yggdrasil \(theirs.answer)"
                }
            } else {
                row += "not measured"
            }
            print(row)
        }
        printParallelRows(engine: engine, context: context, iterations: iterations)
        printReadingRows()
        if let note = reference.note {
            print("yggdrasil-engine: \(note)")
        } else {
            print("reference: \(reference.engine)")
        }
    }

    /// The rows for reading: a state body of 3,000 features (the benchmark's constraint, rollout and variant
    /// features, 1,000 times each) taken by a fresh engine, and a context decoded from its JSON (CPU time, best
    /// of five rounds).
    private static func printReadingRows() {
        let copies = 1_000
        var features: [String] = []
        for index in 0..<copies {
            features.append(
                #"{"name": "c\#(index)", "enabled": true, "strategies": [{"name": "default", "segments": [1], "constraints": [{"contextName": "environment", "operator": "IN", "values": ["production", "staging"]}, {"contextName": "email", "operator": "STR_ENDS_WITH", "values": ["@example.com"], "caseInsensitive": true}]}]}"#
            )
            features.append(
                #"{"name": "r\#(index)", "enabled": true, "strategies": [{"name": "flexibleRollout", "parameters": {"rollout": "50", "stickiness": "default", "groupId": "r\#(index)"}}]}"#
            )
            features.append(
                #"{"name": "v\#(index)", "enabled": true, "strategies": [{"name": "default"}], "variants": [{"name": "red", "weight": 50, "stickiness": "default", "payload": {"type": "string", "value": "r"}}, {"name": "blue", "weight": 50, "stickiness": "default", "payload": {"type": "string", "value": "b"}}]}"#
            )
        }
        let body = Data(
            (#"{"version": 2, "segments": [{"id": 1, "constraints": [{"contextName": "version", "operator": "SEMVER_GTE", "value": "2.0.0"}]}], "features": ["#
                + features.joined(separator: ",") + "]}").utf8)
        var bestState = Double.infinity
        for _ in 0..<5 {
            let engine = UnleashEngine()
            let start = threadCPUNanoseconds()
            do { try engine.takeState(body) } catch {
                print("unleash: cannot read the generated state: \(error)")
                return
            }
            bestState = min(bestState, threadCPUNanoseconds() - start)
        }
        print(pad("state body of \(3 * copies) features (takeState)", 42) + String(format: "%.2f ms", bestState / 1e6))
        let contextBody = Data(contextJSON.utf8)
        let iterations = 100_000
        var bestContext = Double.infinity
        var checksum = 0
        for _ in 0..<5 {
            let start = threadCPUNanoseconds()
            for _ in 0..<iterations {
                checksum &+= (try? UnleashContext.decode(json: contextBody))?.properties.count ?? 0
            }
            bestContext = min(bestContext, (threadCPUNanoseconds() - start) / Double(iterations))
        }
        if checksum == -1 { print("unreachable checksum") }
        print(pad("context decoded from JSON", 42) + String(format: "%.0f ns", bestContext))
    }

    private static func measure(
        _ benchCase: Case, engine: UnleashEngine, context: UnleashContext, iterations: Int
    ) -> (Double, String) {
        var best = Double.infinity
        var checksum = 0
        for _ in 0..<3 {
            let start = threadCPUNanoseconds()
            if benchCase.variant {
                for _ in 0..<iterations {
                    checksum &+= engine.variant(benchCase.flag, context: context).name.utf8.count
                }
            } else {
                for _ in 0..<iterations where engine.isEnabled(benchCase.flag, context: context) { checksum &+= 1 }
            }
            best = min(best, (threadCPUNanoseconds() - start) / Double(iterations))
        }
        let answer =
            benchCase.variant
            ? engine.variant(benchCase.flag, context: context).name
            : String(engine.isEnabled(benchCase.flag, context: context))
        if checksum == -1 { print("unreachable checksum") }
        return (best, answer)
    }

    /// The rows for evaluations on two threads at once (the same engine, flag and context): wall time per
    /// evaluation per thread, and CPU time per evaluation per thread, beside the one-thread CPU figure of the same
    /// run. Contention (a shared lock, or writes to a shared cache line) shows in both; other processes taking the
    /// cores show only in the wall time.
    private static func printParallelRows(engine: UnleashEngine, context: UnleashContext, iterations: Int) {
        // Each thread has a context of its own (decoded separately), as concurrent requests would.
        let contexts = (0..<2).map { _ in (try? UnleashContext.decode(json: Data(contextJSON.utf8))) ?? context }
        let rows: [(label: String, body: @Sendable (Int) -> Int)] = [
            ("simple flag (isEnabled)", { engine.isEnabled("bench.simple", context: contexts[$0]) ? 1 : 0 }),
            ("variant lookup (variant)", { engine.variant("bench.variants", context: contexts[$0]).name.utf8.count }),
        ]
        for row in rows {
            let single = ParallelRun.measure(threads: 1, iterations: iterations, row.body)
            let double = ParallelRun.measure(threads: 2, iterations: iterations / 2, row.body)
            print(
                pad("\(row.label), 2 threads at once", 42)
                    + String(
                        format:
                            "%.0f ns wall, %.0f ns CPU per evaluation per thread; 1 thread: %.0f ns CPU (wall/1-thread %.2fx, CPU/1-thread %.2fx)",
                        double.wall, double.cpu, single.cpu, double.wall / single.cpu, double.cpu / single.cpu))
        }
    }

    // MARK: - Reference engine

    private struct ReferenceFigures {
        var engine = ""
        var note: String?
        var results: [String: (native: Double, python: Double, answer: String)] = [:]
    }

    /// Runs `scripts/unleash-bench.py` on the same state, cases and context.
    private static func referenceFigures() -> ReferenceFigures {
        var figures = ReferenceFigures()
        let script = locateScript()
        guard FileManager.default.fileExists(atPath: script.path) else {
            figures.note = "not measured: \(script.path) is missing (run from the package root)"
            return figures
        }
        guard let stateObject = try? JSONSerialization.jsonObject(with: Data(state.utf8)),
            let contextObject = try? JSONSerialization.jsonObject(with: Data(contextJSON.utf8)),
            let agentContextObject = try? JSONSerialization.jsonObject(with: Data(agentContextJSON.utf8))
        else {
            figures.note = "not measured: the benchmark state is not valid JSON"
            return figures
        }
        let request: [String: Any] = [
            "state": stateObject, "iterations": 200_000,
            "cases": cases.map {
                [
                    "label": $0.label, "flag": $0.flag, "kind": $0.variant ? "variant" : "enabled",
                    "context": $0.longAgent ? agentContextObject : contextObject,
                    "iterations": max(1, 200_000 / $0.scale),
                ] as [String: Any]
            },
        ]
        do {
            let input = try JSONSerialization.data(withJSONObject: request)
            let (status, output, error) = try runPython(script: script, input: input)
            guard status == 0 else {
                figures.note =
                    "not measured (exit \(status)): \(error.trimmingCharacters(in: .whitespacesAndNewlines)); "
                    + "pip install yggdrasil-engine==2.0.0"
                return figures
            }
            guard let document = try JSONSerialization.jsonObject(with: output) as? [String: Any],
                let results = document["results"] as? [[String: Any]]
            else {
                figures.note = "not measured: unreadable answer from \(script.lastPathComponent)"
                return figures
            }
            figures.engine = document["engine"] as? String ?? "yggdrasil-engine"
            for result in results {
                guard let label = result["label"] as? String, let native = result["native_ns"] as? Double,
                    let python = result["python_ns"] as? Double
                else { continue }
                let answer = (result["answer"] as? Bool).map { String($0) } ?? (result["answer"] as? String ?? "?")
                figures.results[label] = (native, python, answer)
            }
        } catch {
            figures.note = "not measured: \(error)"
        }
        return figures
    }

    private static func locateScript() -> URL {
        let local = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(
            "scripts/unleash-bench.py")
        if FileManager.default.fileExists(atPath: local.path) { return local }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/unleash-bench.py")
    }

    private static func runPython(script: URL, input: Data) throws -> (Int32, Data, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try stdin.fileHandleForWriting.write(contentsOf: input)
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output, String(decoding: error, as: UTF8.self))
    }

    /// CPU time of the calling thread: unlike wall time, it does not count the time other processes hold the
    /// cores, so figures taken on a busy machine stay comparable (the Python side uses `time.thread_time_ns`).
    private static func threadCPUNanoseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e9 + Double(spec.tv_nsec)
    }

    private static func nanoseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(1, width - text.count))
    }
}

/// Runs the same loop on several threads released at the same moment, for the two-thread rows of the Unleash
/// benchmarks.
enum ParallelRun {
    /// Per-thread figures of one run.
    private final class Results: Sendable {
        let cpu = AnnotatedMutex([Double]())
    }

    /// Best of three rounds: wall time per iteration per thread (from the release of the threads to the end of the
    /// last), and the mean over threads of CPU time per iteration.
    /// - Parameters:
    ///   - threads: How many threads run the loop at once.
    ///   - iterations: Iterations per thread.
    ///   - body: One iteration, given the thread's index; its results are summed so the work is not optimised away.
    /// - Returns: Nanoseconds of wall and CPU time per iteration per thread.
    static func measure(threads: Int, iterations: Int, _ body: @escaping @Sendable () -> Int) -> (
        wall: Double, cpu: Double
    ) {
        measure(threads: threads, iterations: iterations) { _ in body() }
    }

    /// ``measure(threads:iterations:_:)`` with the thread's index (0 ..< `threads`) passed to `body`.
    static func measure(threads: Int, iterations: Int, _ body: @escaping @Sendable (Int) -> Int) -> (
        wall: Double, cpu: Double
    ) {
        var best = (wall: Double.infinity, cpu: Double.infinity)
        for _ in 0..<3 {
            let results = Results()
            let ready = DispatchGroup()
            let finished = DispatchGroup()
            let go = DispatchSemaphore(value: 0)
            for thread in 0..<threads {
                ready.enter()
                finished.enter()
                Thread.detachNewThread {
                    ready.leave()
                    go.wait()
                    let start = threadCPUNanoseconds()
                    var checksum = 0
                    for _ in 0..<iterations { checksum &+= body(thread) }
                    let cpu = (threadCPUNanoseconds() - start) / Double(iterations)
                    if checksum == -1 { print("unreachable checksum") }
                    results.cpu.withLock { $0.append(cpu) }
                    finished.leave()
                }
            }
            ready.wait()
            let clock = ContinuousClock()
            let started = clock.now
            for _ in 0..<threads { go.signal() }
            finished.wait()
            let elapsed = (clock.now - started).components
            let wall = (Double(elapsed.seconds) * 1e9 + Double(elapsed.attoseconds) / 1e9) / Double(iterations)
            let cpu = results.cpu.withLock { $0.reduce(0, +) / Double(max(1, $0.count)) }
            best = (min(best.wall, wall), min(best.cpu, cpu))
        }
        return best
    }

    private static func threadCPUNanoseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e9 + Double(spec.tv_nsec)
    }
}
