import Flagstaff
import FlagstaffFlagd
import FlagstaffTestSupport
import Foundation
import Testing

/// Runs `scripts/flagd-reference.py` with the reference evaluator, openfeature-flagd-core, in the virtual
/// environment `.ci/run` makes for each version: `.build-python/flagd-core-1` (1.0.0, bucketing version 2) and
/// `.build-python/flagd-core-2` (2.0.0, version 3). One process answers a whole batch of JSON lines.
enum FlagdReference {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let script = FlagdTestbed.packageRoot.appendingPathComponent("scripts/flagd-reference.py")

    /// The environment's folder for a bucketing version.
    static func environment(_ bucketing: FlagdBucketing) -> URL {
        let name = bucketing == .version2 ? "flagd-core-1" : "flagd-core-2"
        return FlagdTestbed.packageRoot.appendingPathComponent(".build-python/\(name)")
    }

    static func python(_ bucketing: FlagdBucketing) -> URL {
        environment(bucketing).appendingPathComponent("bin/python")
    }

    /// `nil` when the reference for `bucketing` can run, else why not.
    static func unavailableReason(_ bucketing: FlagdBucketing) -> String? {
        let version = bucketing == .version2 ? "1.0.0" : "2.0.0"
        let python = python(bucketing)
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            return "no virtual environment at \(environment(bucketing).path) (.ci/run makes it: python3 -m venv, "
                + "then pip install openfeature-flagd-core==\(version))"
        }
        guard
            let result = try? CommandRunner.run(
                python, ["-c", "import openfeature.contrib.tools.flagd.core"],
                environment: ProcessInfo.processInfo.environment, timeout: .seconds(60)),
            result.status == 0
        else {
            return
                "\(python.path) cannot import openfeature-flagd-core (pip install openfeature-flagd-core==\(version))"
        }
        return nil
    }

    static let version2Reason = unavailableReason(.version2)
    static let version3Reason = unavailableReason(.version3)

    /// One answer of the reference.
    struct Answer: Equatable, CustomStringConvertible {
        var value: JSONSettingValue?
        var variant: String?
        var reason: String
        var errorCode: String?
        var exception: String?

        static func == (a: Answer, b: Answer) -> Bool {
            a.value == b.value && a.variant == b.variant && a.reason == b.reason && a.errorCode == b.errorCode
        }

        var description: String {
            "value \(value.map { $0.overrideValue.json } ?? "none") variant \(variant ?? "none") reason \(reason)"
                + (errorCode.map { " error \($0)" } ?? "") + (exception.map { " (\($0))" } ?? "")
        }

        init(value: JSONSettingValue?, variant: String?, reason: String, errorCode: String?, exception: String? = nil) {
            self.value = value
            self.variant = variant
            self.reason = reason
            self.errorCode = errorCode
            self.exception = exception
        }

        init(_ evaluation: FlagdEvaluation) {
            self.init(
                value: evaluation.value, variant: evaluation.variant, reason: evaluation.reason.rawValue,
                errorCode: evaluation.errorCode?.rawValue)
        }
    }

    /// Runs the script over `lines` (each a JSON object) and returns its answers, one per line.
    static func answers(_ lines: [JSONSettingValue], bucketing: FlagdBucketing) throws -> [JSONSettingValue] {
        var input = Data()
        for line in lines {
            input.append(contentsOf: line.overrideValue.json.utf8)
            input.append(0x0A)
        }
        let result = try CommandRunner.run(
            python(bucketing), [script.path], environment: ProcessInfo.processInfo.environment, standardInput: input,
            timeout: .seconds(1800))
        guard result.status == 0 else { throw Failure(description: "the reference failed: \(result)") }
        let output = result.standardOutput.split(separator: "\n").dropFirst()
        guard output.count == lines.count else {
            throw Failure(description: "the reference answered \(output.count) lines for \(lines.count)")
        }
        return try output.map { line in
            do {
                return try JSONSettingValue.read(Data(line.utf8))
            } catch {
                throw Failure(description: "unreadable answer \(line)")
            }
        }
    }

    /// An evaluation answer as an ``Answer``.
    static func answer(_ line: JSONSettingValue) -> Answer {
        func text(_ name: String) -> String? { line[name]?.stringValue }
        let value: JSONSettingValue? = if case .null? = line["value"] { nil } else { line["value"] }
        return Answer(
            value: value, variant: text("variant"), reason: text("reason") ?? "?", errorCode: text("errorCode"),
            exception: text("exception"))
    }
}
