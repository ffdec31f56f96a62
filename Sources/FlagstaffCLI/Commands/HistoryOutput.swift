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
    static func json(_ value: OverrideValue?) -> String {
        guard let value else { return "null" }
        // Canonical JSON already escapes every control character; only non-ASCII text can need more.
        return value.json.utf8.allSatisfy { $0 < 0x80 } ? value.json : JSONOutput.terminalSafe(value.json)
    }

    /// `2026-11-23 19:00:41` in UTC.
    static func time(_ date: Date) -> String {
        let text = JournalTime.text(date)
        return String(text.prefix(10)) + " " + String(text.dropFirst(11).prefix(8))
    }

    /// A JSON string literal: printable ASCII without quotes or backslashes as is (most keys, users and
    /// commands), anything else through ``JSONOutput/quoted(_:)``.
    static func quoted(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }
        return plain ? "\"" + text + "\"" : JSONOutput.quoted(text)
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
            #"{"id":"# + quoted(change.id) + #","time":"# + quoted(JournalTime.text(change.time))
        text +=
            #","origin":"# + quoted(change.origin.rawValue) + #","user":"# + quoted(change.user)
        text += #","pid":\#(change.pid),"command":"# + quoted(change.command)
        if let profile = change.profile { text += #","profile":"# + quoted(profile) }
        if let undone = change.undoes { text += #","undoes":"# + quoted(undone) }
        if let redone = change.redoes { text += #","redoes":"# + quoted(redone) }
        text += #","changes":"# + changesJSON(entries.map { ($0.key, $0.old, $0.new) }) + "}"
        return text
    }

    /// `[{"key":"a","from":"on","to":null}, …]`.
    static func changesJSON(_ changes: [(key: String, from: OverrideValue?, to: OverrideValue?)]) -> String {
        "["
            + changes.map {
                #"{"key":"# + quoted($0.key) + #","from":"# + json($0.from) + #","to":"# + json($0.to) + "}"
            }
            .joined(separator: ",") + "]"
    }

    /// `{"file":…,"line":12,"reason":…}`.
    static func json(_ problem: JournalProblem) -> String {
        #"{"file":"# + quoted(problem.file) + #","line":\#(problem.line),"reason":"#
            + quoted(problem.reason) + "}"
    }

    /// A JSON array of strings.
    static func json(_ strings: [String]) -> String {
        "[" + strings.map(quoted).joined(separator: ",") + "]"
    }

    /// The registry's file store, or a failure saying history needs one.
    static func fileStore(_ loaded: LoadedRegistry) throws -> FileOverrideStore {
        guard let store = loaded.registry.store as? FileOverrideStore else {
            throw CLIFailure.runtime("the store \(loaded.storeURL.path) is not a file store; it keeps no history")
        }
        return store
    }
}
