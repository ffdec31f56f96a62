import Flagstaff
import Foundation

/// How the history, undo, redo and profile commands print changes: text for people, JSON for scripts
/// (written by hand: values are embedded as the JSON they are, and 100,000 lines print quickly).
enum HistoryOutput {
    /// A value for people: `on`, `off`, `default` (no override), else its JSON (`50`, `"dark"`), safe to print.
    static func text(_ value: OverrideValue?) -> String {
        guard let value else { return "default" }
        if value == .on { return "on" }
        if value == .off { return "off" }
        return TerminalText.safe(value.json)
    }

    /// A value as JSON: its JSON text (terminal-unsafe characters escaped), or `null` for no override.
    static func json(_ value: OverrideValue?) -> String { value.map { JSONOutput.terminalSafe($0.json) } ?? "null" }

    /// `2026-11-23 19:00:41` in UTC.
    static func time(_ date: Date) -> String {
        let text = JournalTime.text(date)
        return String(text.prefix(19)).replacingOccurrences(of: "T", with: " ")
    }

    /// The text lines of a change: a header, then one indented line per key.
    static func lines(_ change: HistoryChange, entries: [JournalEntry]) -> [String] {
        var header = "\(time(change.time))  \(TerminalText.safe(change.origin.rawValue))"
        if let profile = change.profile { header += " \(TerminalText.safe(profile))" }
        if let undone = change.undoes { header += " of \(undone)" }
        if let redone = change.redoes { header += " of \(redone)" }
        header += "  \(TerminalText.safe(change.user))  pid \(change.pid)"
        if !change.command.isEmpty { header += "  \(TerminalText.safe(change.command))" }
        header += "  [\(change.id)]"
        return [header] + entries.map { "    \(TerminalText.safe($0.key)): \(text($0.old)) → \(text($0.new))" }
    }

    /// A change as a JSON object (compact, one line).
    static func json(_ change: HistoryChange, entries: [JournalEntry]) -> String {
        var text =
            #"{"id":"# + JSONOutput.quoted(change.id) + #","time":"# + JSONOutput.quoted(JournalTime.text(change.time))
        text +=
            #","origin":"# + JSONOutput.quoted(change.origin.rawValue) + #","user":"# + JSONOutput.quoted(change.user)
        text += #","pid":\#(change.pid),"command":"# + JSONOutput.quoted(change.command)
        if let profile = change.profile { text += #","profile":"# + JSONOutput.quoted(profile) }
        if let undone = change.undoes { text += #","undoes":"# + JSONOutput.quoted(undone) }
        if let redone = change.redoes { text += #","redoes":"# + JSONOutput.quoted(redone) }
        text += #","changes":"# + changesJSON(entries.map { ($0.key, $0.old, $0.new) }) + "}"
        return text
    }

    /// `[{"key":"a","from":"on","to":null}, …]`.
    static func changesJSON(_ changes: [(key: String, from: OverrideValue?, to: OverrideValue?)]) -> String {
        "["
            + changes.map {
                #"{"key":"# + JSONOutput.quoted($0.key) + #","from":"# + json($0.from) + #","to":"# + json($0.to) + "}"
            }
            .joined(separator: ",") + "]"
    }

    /// `{"file":…,"line":12,"reason":…}`.
    static func json(_ problem: JournalProblem) -> String {
        #"{"file":"# + JSONOutput.quoted(problem.file) + #","line":\#(problem.line),"reason":"#
            + JSONOutput.quoted(problem.reason) + "}"
    }

    /// A JSON array of strings.
    static func json(_ strings: [String]) -> String {
        "[" + strings.map(JSONOutput.quoted).joined(separator: ",") + "]"
    }

    /// The registry's file store, or a failure saying history needs one.
    static func fileStore(_ loaded: LoadedRegistry) throws -> FileOverrideStore {
        guard let store = loaded.registry.store as? FileOverrideStore else {
            throw CLIFailure.runtime("the store \(loaded.storeURL.path) is not a file store; it keeps no history")
        }
        return store
    }
}
