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
        var bytes: [UInt8] = []
        appendText(change, entries: entries, to: &bytes)
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Appends the text lines of a change (see ``lines(_:entries:)``), each with its line feed, appending
    /// as UTF-8 piece by piece: `history` prints 100,000 of these lines. Every field read from the journal goes
    /// through ``TerminalText/safe(_:)`` (the change id and undo links too: a hand-edited journal can hold anything).
    static func appendText(_ change: HistoryChange, entries: [JournalEntry], to text: inout [UInt8]) {
        let first = change.entries.first
        put(time(change.time), &text)
        put("  ", &text)
        put(TerminalText.safe(change.origin.rawValue), &text)
        if let profile = first?.profile {
            put(" ", &text)
            put(TerminalText.safe(profile), &text)
        }
        if let undone = first?.undoes {
            put(" of ", &text)
            put(TerminalText.safe(undone), &text)
        }
        if let redone = first?.redoes {
            put(" of ", &text)
            put(TerminalText.safe(redone), &text)
        }
        put("  ", &text)
        put(TerminalText.safe(change.user), &text)
        put("  pid ", &text)
        put(String(change.pid), &text)
        let command = change.command
        if !command.isEmpty {
            put("  ", &text)
            put(TerminalText.safe(command), &text)
        }
        put("  [", &text)
        put(TerminalText.safe(change.id), &text)
        put("]", &text)
        if !change.isFullyJournaled {
            put("  (partly recorded: \(change.entries.count) of its \(change.writtenKeyCount) keys)", &text)
        }
        put("\n", &text)
        for entry in entries {
            put("    ", &text)
            put(TerminalText.safe(entry.key), &text)
            put(": ", &text)
            put(Self.text(entry.old), &text)
            if let until = entry.oldExpiresAt { put(" (until \(time(until)))", &text) }
            put(" → ", &text)
            put(Self.text(entry.new), &text)
            if let until = entry.newExpiresAt { put(" (until \(time(until)))", &text) }
            put("\n", &text)
        }
    }

    /// A change as a JSON object (compact, one line).
    static func json(_ change: HistoryChange, entries: [JournalEntry]) -> String {
        var bytes: [UInt8] = []
        appendJSON(change, entries: entries, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a change as a JSON object (see ``json(_:entries:)``) as UTF-8, piece by piece.
    static func appendJSON(_ change: HistoryChange, entries: [JournalEntry], to text: inout [UInt8]) {
        let first = change.entries.first
        put(#"{"id":"#, &text)
        put(quoted(change.id), &text)
        put(#","time":"#, &text)
        put(quoted(JournalTime.text(change.time)), &text)
        put(#","origin":"#, &text)
        put(quoted(change.origin.rawValue), &text)
        put(#","user":"#, &text)
        put(quoted(change.user), &text)
        put(#","pid":"#, &text)
        put(String(change.pid), &text)
        put(#","command":"#, &text)
        put(quoted(change.command), &text)
        if let profile = first?.profile {
            put(#","profile":"#, &text)
            put(quoted(profile), &text)
        }
        if let undone = first?.undoes {
            put(#","undoes":"#, &text)
            put(quoted(undone), &text)
        }
        if let redone = first?.redoes {
            put(#","redoes":"#, &text)
            put(quoted(redone), &text)
        }
        if !change.isFullyJournaled {
            put(#","partlyRecorded":{"recorded":\#(change.entries.count),"written":\#(change.writtenKeyCount)}"#, &text)
        }
        put(#","changes":["#, &text)
        for (index, entry) in entries.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            put(#"{"key":"#, &text)
            put(quoted(entry.key), &text)
            put(#","from":"#, &text)
            put(json(entry.old), &text)
            put(#","to":"#, &text)
            put(json(entry.new), &text)
            if let until = entry.oldExpiresAt {
                put(#","fromExpiresAt":"#, &text)
                put(quoted(JournalTime.text(until)), &text)
            }
            if let until = entry.newExpiresAt {
                put(#","toExpiresAt":"#, &text)
                put(quoted(JournalTime.text(until)), &text)
            }
            put("}", &text)
        }
        put("]}", &text)
    }

    /// Appends the UTF-8 of `string` to `bytes`.
    static func put(_ string: String, _ bytes: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
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
        guard let store = loaded.registry.fileStore else {
            throw CLIFailure.runtime("the store \(loaded.storeURL.path) is not a file store; it keeps no history")
        }
        return store
    }
}
