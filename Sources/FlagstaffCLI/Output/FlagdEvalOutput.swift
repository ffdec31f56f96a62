import Flagstaff
import FlagstaffFlagd

/// Formats `flagstaff flagd eval` results.
///
/// Text: one block per flag, `key  value  variant  REASON` (or `key  ERROR  CODE: message`), then its metadata
/// as `  name: value` lines. JSON: flagd's OFREP answer object per flag, keys in a fixed order, absent fields as
/// `null`, and an array of them for `--all`.
enum FlagdEvalOutput {
    static func text(_ evaluations: [FlagdEvaluation]) -> String {
        let width = evaluations.map { TerminalText.columns(TerminalText.safe($0.key)) }.max() ?? 0
        var out = ""
        for evaluation in evaluations {
            out += TerminalText.padded(TerminalText.safe(evaluation.key), to: width) + "  "
            if let code = evaluation.errorCode {
                out += "ERROR  \(code): \(TerminalText.safe(evaluation.errorMessage ?? ""))\n"
            } else {
                let value = evaluation.value.map(Self.compact) ?? "(no value: the caller's default)"
                out +=
                    "\(TerminalText.safe(value))  \(TerminalText.safe(evaluation.variant ?? "-"))  \(evaluation.reason)\n"
            }
            for name in evaluation.metadata.keys.sorted() {
                out += "  \(TerminalText.safe(name)): \(TerminalText.safe(compact(evaluation.metadata[name]!)))\n"
            }
        }
        return out
    }

    static func json(_ evaluations: [FlagdEvaluation], array: Bool) -> String {
        let objects = evaluations.map(object)
        return (array ? "[" + objects.joined(separator: ",") + "]" : objects.joined(separator: "\n")) + "\n"
    }

    /// One OFREP-shaped object.
    static func object(_ evaluation: FlagdEvaluation) -> String {
        func string(_ text: String?) -> String { text.map(JSONOutput.quoted) ?? "null" }
        let metadata = evaluation.metadata.keys.sorted().map { name in
            JSONOutput.quoted(name) + ":" + compact(evaluation.metadata[name]!)
        }
        return "{\"key\":\(string(evaluation.key)),\"value\":\(evaluation.value.map(compact) ?? "null"),"
            + "\"variant\":\(string(evaluation.variant)),\"reason\":\(string(evaluation.reason.rawValue)),"
            + "\"errorCode\":\(string(evaluation.errorCode?.rawValue)),"
            + "\"errorMessage\":\(string(evaluation.errorMessage)),\"metadata\":{\(metadata.joined(separator: ","))}}"
    }

    /// A value as compact JSON (members sorted), terminal-safe.
    static func compact(_ value: JSONSettingValue) -> String {
        JSONOutput.terminalSafe(value.overrideValue.json)
    }
}
