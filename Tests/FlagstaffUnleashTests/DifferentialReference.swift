import FlagstaffTestSupport
import Foundation
import Testing

/// Runs `scripts/yggdrasil-reference.py`: the reference Unleash engine (`yggdrasil-engine` from PyPI) behind a
/// JSON-in, JSON-out pipe, one Python process per batch of queries.
enum DifferentialReference {
    /// One answer of the reference engine.
    struct Answer {
        let enabled: Bool
        let variant: [String: Any]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let script = SpecificationSuite.packageRoot.appendingPathComponent("scripts/yggdrasil-reference.py")

    /// `nil` when python3 and yggdrasil-engine are usable, else why not.
    static let unavailableReason: String? = {
        guard FileManager.default.fileExists(atPath: script.path) else { return "\(script.path) is missing" }
        do {
            let result = try run(["python3", "-c", "import yggdrasil_engine"], input: Data())
            if result.status != 0 {
                return "python3 cannot import yggdrasil_engine (pip install yggdrasil-engine==2.0.0): "
                    + String(decoding: result.error, as: UTF8.self)
            }
            return nil
        } catch {
            return "python3 could not be started: \(error)"
        }
    }()

    static let isAvailable = unavailableReason == nil

    /// The interpreter `python3` on PATH resolves to, asked once: version-manager shims (pyenv) cost about
    /// 75 ms a start, and the tests start the reference once per batch.
    static let interpreter: String = {
        guard let result = try? run(["python3", "-c", "import sys; print(sys.executable)"], input: Data()),
            result.status == 0
        else { return "python3" }
        let path = String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? "python3" : path
    }()

    static let skipComment = Comment(rawValue: "Differential test skipped: \(unavailableReason ?? "")")

    /// Asks the reference engine about every `(flag, context)` query for `state`, after applying `updates`
    /// (further state or delta documents) in order.
    static func answers(
        state: Any, updates: [Any] = [], queries: [(flag: String, context: [String: Any])]
    ) async throws -> [Answer] {
        let request: [String: Any] = [
            "state": state,
            "updates": updates,
            "queries": queries.map { ["flag": $0.flag, "context": $0.context] as [String: Any] },
        ]
        let input = try JSONSerialization.data(withJSONObject: request)
        // The reference takes a while: wait for it off the cooperative pool (see offCooperativePool).
        let script = self.script.path
        let python = interpreter
        let result = try await offCooperativePool { try run([python, script], input: input) }
        guard result.status == 0 else {
            throw Failure(
                description:
                    "reference script exited \(result.status): \(String(decoding: result.error, as: UTF8.self))")
        }
        guard let object = try JSONSerialization.jsonObject(with: result.output) as? [String: Any],
            let results = object["results"] as? [[String: Any]], results.count == queries.count
        else { throw Failure(description: "reference script answered with an unexpected document") }
        return try results.map { entry in
            guard let enabled = entry["enabled"] as? Bool, let variant = entry["variant"] as? [String: Any] else {
                throw Failure(description: "reference answer lacks enabled/variant: \(entry)")
            }
            return Answer(enabled: enabled, variant: variant)
        }
    }

    /// Runs a command found on PATH, feeding `input` on stdin; returns its exit status, stdout and stderr.
    static func run(_ arguments: [String], input: Data) throws -> (status: Int32, output: Data, error: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flagstaff-ygg-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: stderr.path, contents: nil) else {
            throw Failure(description: "cannot create \(stderr.path)")
        }
        defer { try? FileManager.default.removeItem(at: stderr) }
        let errorHandle = try FileHandle(forWritingTo: stderr)
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = errorHandle
        try process.run()
        try errorHandle.close()
        // Feed stdin from another thread so a large request never blocks against a full stdout pipe.
        let writer = Thread {
            try? stdin.fileHandleForWriting.write(contentsOf: input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let error = (try? Data(contentsOf: stderr)) ?? Data()
        return (process.terminationStatus, output, error)
    }
}
