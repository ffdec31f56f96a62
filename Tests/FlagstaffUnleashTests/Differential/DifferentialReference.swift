import Flagstaff
import FlagstaffTestSupport
import Foundation
import Testing

@testable import FlagstaffUnleash

/// Runs `scripts/yggdrasil-reference.py`: the reference Unleash engine (`yggdrasil-engine` from PyPI) behind a
/// JSON-in, JSON-out pipe, one Python process per batch of queries.
enum DifferentialReference {
    /// One answer of the reference engine.
    struct Answer {
        let enabled: Bool
        let variant: UnleashVariant
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
                    + result.standardError
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
        let path = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        return path.isEmpty ? "python3" : path
    }()

    static let skipComment = Comment(rawValue: "Differential test skipped: \(unavailableReason ?? "")")

    /// Asks the reference engine about every query (every flag for every context) for `state`, after applying
    /// `updates` (further state or delta documents) in order; the answers are in the queries' order.
    static func answers(state: Any, updates: [Any] = [], queries: DifferentialQueries) async throws -> [Answer] {
        var input = Data(#"{"state":"#.utf8)
        input += try JSONSerialization.data(withJSONObject: state, options: [.fragmentsAllowed])
        input += Data(#","updates":"#.utf8)
        input += try JSONSerialization.data(withJSONObject: updates)
        input += Data(#","queries":"#.utf8)
        input += queries.requestJSON()
        input += Data("}".utf8)
        let request = input
        // The reference takes a while: wait for it off the cooperative pool (see offCooperativePool).
        let script = self.script.path
        let python = interpreter
        let result = try await offCooperativePool { try run([python, script], input: request) }
        guard result.status == 0 else {
            throw Failure(
                description:
                    "reference script exited \(result.status): \(result.standardError)")
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any],
            let results = object["results"] as? [[String: Any]], results.count == queries.count
        else { throw Failure(description: "reference script answered with an unexpected document") }
        return try results.map { entry in
            guard let enabled = entry["enabled"] as? Bool, let variant = entry["variant"] as? [String: Any] else {
                throw Failure(description: "reference answer lacks enabled/variant: \(entry)")
            }
            return Answer(enabled: enabled, variant: try Self.variant(from: variant))
        }
    }

    /// The reference's variant object as an ``UnleashVariant``: mapped field by field when it has exactly the
    /// expected shape (tens of thousands per run), through `JSONDecoder` otherwise, so that any other shape is
    /// decoded (or refused) exactly as the specification's JSON would be.
    static func variant(from object: [String: Any]) throws -> UnleashVariant {
        if let name = object["name"] as? String, let enabled = object["enabled"] as? Bool,
            let featureEnabled = object["feature_enabled"] as? Bool
        {
            switch object["payload"] {
            case nil where object.count == 3:
                return UnleashVariant(name: name, enabled: enabled, featureEnabled: featureEnabled)
            case let payload as [String: Any] where object.count == 4 && payload.count == 2:
                if let type = payload["type"] as? String, let value = payload["value"] as? String {
                    return UnleashVariant(
                        name: name, enabled: enabled, featureEnabled: featureEnabled,
                        payload: UnleashPayload(type: type, value: value))
                }
            default: break
            }
        }
        return try JSONDecoder().decode(UnleashVariant.self, from: JSONSerialization.data(withJSONObject: object))
    }

    /// Runs a command found on PATH, feeding `input` on stdin, for at most 30 minutes (a differential run asks
    /// tens of thousands of queries of one process).
    /// - Returns: its exit status, stdout and stderr.
    static func run(_ arguments: [String], input: Data) throws -> CommandRunner.Result {
        try CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: ProcessInfo.processInfo.environment,
            standardInput: input, timeout: .seconds(1800))
    }
}

/// The queries of one differential run: every flag for every context, context-major. Each context is encoded and
/// decoded once, not once per flag (a run asks tens of thousands of queries).
struct DifferentialQueries {
    /// The flags asked about for each context.
    let flags: [String]
    /// Each context as JSON with sorted keys (what the reference receives, and what mismatches print).
    let contextJSON: [Data]
    /// Each context as the engine takes it.
    let contexts: [UnleashContext]

    init(contexts: [[String: Any]], flags: [String]) throws {
        self.flags = flags
        contextJSON = try contexts.map { try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]) }
        self.contexts = try contextJSON.map { try UnleashContext.decode(json: $0) }
    }

    /// How many queries: contexts × flags.
    var count: Int { contexts.count * flags.count }

    /// The query at `index`: its flag, its context as JSON text and as the engine's context.
    func query(_ index: Int) -> (flag: String, json: String, context: UnleashContext) {
        let context = index / flags.count
        return (flags[index % flags.count], String(decoding: contextJSON[context], as: UTF8.self), contexts[context])
    }

    /// The request's `queries` array, written from the pre-encoded contexts.
    func requestJSON() -> Data {
        let quotedFlags = flags.map { Data(JSONText.quoted($0).utf8) }
        var out = Data("[".utf8)
        var first = true
        for context in contextJSON {
            for flag in quotedFlags {
                if !first { out += Data(",".utf8) }
                first = false
                out += Data(#"{"flag":"#.utf8)
                out += flag
                out += Data(#","context":"#.utf8)
                out += context
                out += Data("}".utf8)
            }
        }
        out += Data("]".utf8)
        return out
    }
}
