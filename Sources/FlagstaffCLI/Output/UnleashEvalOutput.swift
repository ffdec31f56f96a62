import FlagstaffUnleash

/// Formats `flagstaff unleash eval` results and writes them to standard output in large chunks
/// (``StandardStreams/write(_:)``).
///
/// Text mode prints one row per flag (`name  on|off  variant  [payload type: value]`), under a
/// `# context N: {…}` header when the contexts come from a file; with `explain`, each row ends with
/// `  # <reason>`. JSON mode prints one object per line with the keys in the documented order: `context` (the
/// input object as given), `flag`, `enabled`, `variant`, and `reason` last when `explain` is set.
struct UnleashEvalOutput {
    private let json: Bool
    private let explain: Bool
    private let flags: [String]
    private let multipleContexts: Bool
    private let nameWidth: Int
    private var buffer = ""
    private var contextCount = 0

    /// - Parameters:
    ///   - json: JSON Lines instead of text.
    ///   - flags: the flags to evaluate for every context, in output order.
    ///   - multipleContexts: whether to print a header before each context's rows (text mode).
    ///   - explain: whether to add why each flag is on or off.
    init(json: Bool, flags: [String], multipleContexts: Bool, explain: Bool) {
        self.json = json
        self.explain = explain
        self.flags = flags
        self.multipleContexts = multipleContexts
        nameWidth = flags.map { TerminalText.columns(TerminalText.safe($0)) }.max() ?? 0
        buffer.reserveCapacity(1 << 16)
    }

    /// Evaluates every flag for one context and appends the rows.
    /// - Parameters:
    ///   - context: the decoded context.
    ///   - source: the context's JSON text as the user gave it (echoed in the output).
    ///   - engine: the engine holding the state.
    mutating func write(context: UnleashContext, source: String, engine: UnleashEngine) {
        contextCount += 1
        if !json, multipleContexts {
            buffer += "# context \(contextCount): \(TerminalText.safe(source))\n"
        }
        for flag in flags {
            // One pass per flag, so the variant always agrees with the on/off answer (even on random rollouts).
            let evaluation = engine.evaluate(flag, context: context)
            if json {
                appendJSONLine(source: source, evaluation: evaluation)
            } else {
                appendTextRow(evaluation)
            }
        }
        if buffer.utf8.count >= 1 << 16 { flush() }
    }

    /// Writes whatever is still buffered.
    mutating func finish() { flush() }

    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        StandardStreams.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func appendTextRow(_ evaluation: UnleashEvaluation) {
        let (enabled, variant) = (evaluation.enabled, evaluation.variant)
        let name = TerminalText.safe(evaluation.flag)
        let indent = multipleContexts ? "  " : ""
        var row = indent + TerminalText.padded(name, to: nameWidth)
        row += enabled ? "  on   " : "  off  "
        row += TerminalText.safe(variant.name)
        if let payload = variant.payload {
            row += "  [\(TerminalText.safe(payload.type)): \(TerminalText.safe(payload.value))]"
        }
        if explain { row += "  # " + TerminalText.safe(evaluation.reason) }
        buffer += row + "\n"
    }

    private mutating func appendJSONLine(source: String, evaluation: UnleashEvaluation) {
        let (enabled, variant) = (evaluation.enabled, evaluation.variant)
        var line = "{\"context\":" + JSONOutput.terminalSafe(source)
        line += ",\"flag\":" + Self.quoted(evaluation.flag)
        line += ",\"enabled\":" + (enabled ? "true" : "false")
        line += ",\"variant\":{\"name\":" + Self.quoted(variant.name)
        line += ",\"enabled\":" + (variant.enabled ? "true" : "false")
        line += ",\"feature_enabled\":" + (variant.featureEnabled ? "true" : "false")
        if let payload = variant.payload {
            line +=
                ",\"payload\":{\"type\":" + Self.quoted(payload.type) + ",\"value\":" + Self.quoted(payload.value) + "}"
        }
        line += "}"
        if explain { line += ",\"reason\":" + Self.quoted(evaluation.reason) }
        buffer += line + "}\n"
    }

    private static func quoted(_ text: String) -> String { JSONOutput.quoted(text) }
}
