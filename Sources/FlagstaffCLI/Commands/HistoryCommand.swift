import ArgumentParser
import Flagstaff
import Foundation

/// `flagstaff history`: the store's changes, newest first.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "List the changes made to the override store, newest first.",
        discussion: """
            Every change to the store (by the console, these commands, the app, import, profile apply, undo and \
            redo) is journaled beside the store file in <store>.history.jsonl: when, which keys, the values \
            before and after, where it came from, the user and the process. A change that set several keys at \
            once is one entry. --since takes a duration (90s, 30m, 2h, 7d, 1d12h) or a \
            time (2026-11-23T19:00:00Z, 2026-11-23T20:00:00+01:00, or a UTC date 2026-11-23). --key takes a key or a glob (checkout.*). Lines of \
            the journal that cannot be read are reported on standard error (with --json, under "problems") and \
            skipped.
            """)

    @OptionGroup var source: RegistrySourceOptions

    // `.unconditional` (as `set --for`): `--since -1h` is a value, refused with the accepted forms.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Only changes since a duration ago (90s, 30m, 2h, 7d) or a time.", valueName: "when"))
    var since: String?

    @Option(help: ArgumentHelp("Only changes to keys matching a key or glob (checkout.*).", valueName: "pattern"))
    var key: String?

    @Flag(help: "Print JSON: {\"changes\":[…],\"problems\":[…]}.")
    var json = false

    func run() throws {
        let now = try CommandClock.wallClock(environment: CommandContext.current.environment).date
        let cutoff = try since.map { try Self.parseSince($0, now: now) }
        let pattern = key.map(KeyPattern.init)
        let loaded = try RegistryLoader.load(source, store: .ignored)
        let store = try HistoryOutput.fileStore(loaded)
        let journal: ChangeJournal
        do {
            guard let opened = try store.journal() else {
                throw CLIFailure.runtime("the store \(store.url.path) keeps no history")
            }
            journal = opened
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure.runtime("\(error)")
        }
        let contents = journal.read()
        var selected: [(HistoryChange, [JournalEntry])] = []
        for change in contents.changes.reversed() {
            if let cutoff, change.time < cutoff { continue }
            let entries = pattern.map { pattern in change.entries.filter { pattern.matches($0.key) } } ?? change.entries
            if !entries.isEmpty { selected.append((change, entries)) }
        }
        if json {
            var bytes = Array(#"{"changes":["#.utf8)
            for (index, (change, entries)) in selected.enumerated() {
                HistoryOutput.put(index == 0 ? "\n" : ",\n", &bytes)
                HistoryOutput.appendJSON(change, entries: entries, to: &bytes)
                Self.flush(&bytes)
            }
            HistoryOutput.put((selected.isEmpty ? "" : "\n") + #"],"problems":["#, &bytes)
            HistoryOutput.put(contents.problems.map(HistoryOutput.json).joined(separator: ",") + "]}", &bytes)
            StandardStreams.out(String(decoding: bytes, as: UTF8.self))
            return
        }
        for problem in contents.problems where !contents.unreadableFiles.contains(problem) {
            StandardStreams.note("skipped a line of the history: \(TerminalText.safe(problem.description))")
        }
        for problem in contents.unreadableFiles.dropFirst(selected.isEmpty ? 1 : 0) {
            StandardStreams.note("cannot read the journal \(TerminalText.safe(problem.file)): \(Self.reason(problem))")
        }
        if selected.isEmpty {
            // An unreadable journal is an unknown history, not an empty one.
            if let unreadable = contents.unreadableFiles.first {
                throw CLIFailure.runtime(
                    "cannot read the journal \(unreadable.file): \(Self.reason(unreadable)); the history is unknown, not empty"
                )
            }
            StandardStreams.note("no changes\(since == nil && key == nil ? "" : " match") in \(journal.url.path)")
            return
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.chunkSize + 4096)
        for (change, entries) in selected {
            HistoryOutput.appendText(change, entries: entries, to: &bytes)
            Self.flush(&bytes)
        }
        if !bytes.isEmpty { StandardStreams.write(String(decoding: bytes, as: UTF8.self)) }
    }

    /// Why a journal file could not be read at all, without the problem's `cannot read: `.
    private static func reason(_ problem: JournalProblem) -> String {
        TerminalText.safe(String(problem.reason.trimmingPrefix("cannot read: ")))
    }

    /// How much output is gathered before it is written: the output streams in chunks of this size instead
    /// of being built whole.
    static let chunkSize = 64 * 1024

    /// Writes `bytes` (UTF-8) to standard output and empties them once they are ``chunkSize`` long.
    private static func flush(_ bytes: inout [UInt8]) {
        guard bytes.count >= chunkSize else { return }
        StandardStreams.write(String(decoding: bytes, as: UTF8.self))
        bytes.removeAll(keepingCapacity: true)
    }

    /// `90s`, `30m`, `2h`, `7d` (before `now`), or `2026-11-23T19:00:00Z` / `2026-11-23` (UTC).
    /// - Throws: `CLIFailure.usage` naming `--since` and the accepted forms.
    static func parseSince(_ text: String, now: Date) throws -> Date {
        if let seconds = DurationText.seconds(text) { return now.addingTimeInterval(-TimeInterval(seconds)) }
        // A date alone is its midnight, a time without a zone is UTC.
        let suffix = text.utf8.count == 10 ? "T00:00:00Z" : text.utf8.count == 19 ? "Z" : ""
        do {
            return try ISO8601Time.parse(text + suffix)
        } catch {
            throw CLIFailure.usage(
                "--since '\(TerminalText.safe(text))': \(error.reason.isEmpty ? "" : error.reason + "; ")expected \(DurationText.expected), or a time (2026-11-23T19:00:00Z, 2026-11-23T20:00:00+01:00, or a UTC date 2026-11-23)"
            )
        }
    }
}
