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
        var text = ""
        appendText(change, entries: entries, to: &text)
        return text.split(separator: "\n").map(String.init)
    }

    /// Appends the text lines of a change (see ``lines(_:entries:)``), each with its line feed, appending
    /// piece by piece: `history` prints 100,000 of these lines.
    static func appendText(_ change: HistoryChange, entries: [JournalEntry], to text: inout String) {
        let first = change.entries.first
        text += time(change.time)
        text += "  "
        text += TerminalText.safe(change.origin.rawValue)
        if let profile = first?.profile {
            text += " "
            text += TerminalText.safe(profile)
        }
        if let undone = first?.undoes {
            text += " of "
            text += undone
        }
        if let redone = first?.redoes {
            text += " of "
            text += redone
        }
        text += "  "
        text += TerminalText.safe(change.user)
        text += "  pid "
        text += String(change.pid)
        let command = change.command
        if !command.isEmpty {
            text += "  "
            text += TerminalText.safe(command)
        }
        text += "  ["
        text += change.id
        text += "]\n"
        for entry in entries {
            text += "    "
            text += TerminalText.safe(entry.key)
            text += ": "
            text += Self.text(entry.old)
            text += " → "
            text += Self.text(entry.new)
            text += "\n"
        }
    }

    /// A change as a JSON object (compact, one line).
    static func json(_ change: HistoryChange, entries: [JournalEntry]) -> String {
        var text = ""
        appendJSON(change, entries: entries, to: &text)
        return text
    }

    /// Appends a change as a JSON object (see ``json(_:entries:)``), piece by piece.
    static func appendJSON(_ change: HistoryChange, entries: [JournalEntry], to text: inout String) {
        let first = change.entries.first
        text += #"{"id":"#
        text += quoted(change.id)
        text += #","time":"#
        text += quoted(JournalTime.text(change.time))
        text += #","origin":"#
        text += quoted(change.origin.rawValue)
        text += #","user":"#
        text += quoted(change.user)
        text += #","pid":"#
        text += String(change.pid)
        text += #","command":"#
        text += quoted(change.command)
        if let profile = first?.profile {
            text += #","profile":"#
            text += quoted(profile)
        }
        if let undone = first?.undoes {
            text += #","undoes":"#
            text += quoted(undone)
        }
        if let redone = first?.redoes {
            text += #","redoes":"#
            text += quoted(redone)
        }
        text += #","changes":["#
        for (index, entry) in entries.enumerated() {
            if index > 0 { text += "," }
            text += #"{"key":"#
            text += quoted(entry.key)
            text += #","from":"#
            text += json(entry.old)
            text += #","to":"#
            text += json(entry.new)
            text += "}"
        }
        text += "]}"
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
