import Flagstaff
import Foundation

/// The journal, the bisect state and the times they hold.
extension FuzzTarget {
    /// The journal reader (``ChangeJournal/read()`` of a journal file) and its writer.
    static let journal = FuzzTarget(
        name: "journal",
        summary: "journal line reader (ChangeJournal.read of a file); round trip through ChangeJournal.append"
    ) { data in
        let journal = freshJournal("read")
        do {
            try data.write(to: journal.url)
        } catch {
            FuzzCheck.fail("cannot write the journal file: \(error)")
        }
        let contents = journal.read()
        for problem in contents.problems {
            if problem.reason.trimmingCharacters(in: .whitespaces).isEmpty {
                FuzzCheck.fail("a journal problem without a reason: \(problem)")
            }
        }
        let entries = contents.entries
        guard !entries.isEmpty else { return }
        // Written as the store writes a change's lines (members shared between lines of one change).
        let first = rewrite(entries, as: "first")
        FuzzCheck.equal(first.count, entries.count, "journal entries written and read")
        for (read, original) in zip(first, entries) {
            FuzzCheck.equal(normalized(read), normalized(original), "journal entry written and read")
        }
        // Times are written to the millisecond: from the writer's own output on, nothing changes.
        FuzzCheck.equal(rewrite(first, as: "second"), first, "journal entries written twice")
    }

    /// The bisect state file reader (``BisectStateFile``) and its writer.
    static let bisectState = FuzzTarget(
        name: "bisect-state",
        summary: "bisect state reader (BisectStateFile.decode); round trip through BisectStateFile.encode"
    ) { data in
        let session: BisectSession
        do {
            session = try BisectStateFile.decode(data, path: "s.json.bisect.json")
        } catch {
            FuzzCheck.described(error, as: BisectError.self, by: "BisectStateFile.decode")
            return
        }
        let written = BisectStateFile.encode(session)
        let again: BisectSession
        do {
            again = try BisectStateFile.decode(written, path: "written.json")
        } catch {
            FuzzCheck.fail("the bisect state written does not read back: \(error)\n\(FuzzCheck.text(written))")
        }
        FuzzCheck.equal(again.candidates, session.candidates, "bisect candidates")
        FuzzCheck.equal(again.pattern, session.pattern, "bisect pattern")
        FuzzCheck.equal(again.answers, session.answers, "bisect answers")
        FuzzCheck.equal(again.remaining, session.remaining, "bisect remaining candidates")
        FuzzCheck.equal(JournalTime.text(again.startedAt), JournalTime.text(session.startedAt), "bisect start")
        FuzzCheck.equal(BisectStateFile.encode(again), written, "bisect state written again")
    }

    /// The timestamps of the journal, the store's expiries and the bisect state (``JournalTime``, ``CivilDate``), and the
    /// command line's times and durations (``ISO8601Time``, ``DurationText``).
    static let times = FuzzTarget(
        name: "times",
        summary:
            "UTC time reader (JournalTime.date, CivilDate) and the command line's (ISO8601Time, DurationText); round trips"
    ) { data in
        if let date = JournalTime.date(data) {
            let text = JournalTime.text(date)
            // Text in the writer's own form (milliseconds, no leap second, a day the month has) is written back
            // as it was.
            let input = FuzzCheck.text(data)
            if data.count == 24, data[data.startIndex + 17] != UInt8(ascii: "6"), text.prefix(10) == input.prefix(10) {
                FuzzCheck.equal(text, input, "time read and written")
            }
            guard let again = JournalTime.date(Array(text.utf8)) else {
                FuzzCheck.fail("JournalTime.text wrote \(text), which JournalTime.date does not read")
            }
            FuzzCheck.equal(JournalTime.text(again), text, "time written and read")
            _ = OverrideExpiry.shortText(date.timeIntervalSince(Date(timeIntervalSince1970: 0)))
        }
        // The command line's readers: `--for`/`--since` durations, `--until`/`--since`/`FLAGSTAFF_NOW` times.
        let argument = FuzzCheck.text(data)
        if let seconds = DurationText.seconds(argument) {
            guard (1...DurationText.longest).contains(seconds) else {
                FuzzCheck.fail("DurationText read \(argument) as \(seconds) s, outside 1…\(DurationText.longest)")
            }
            FuzzCheck.equal(DurationText.seconds("\(seconds)s") ?? 0, seconds, "duration \(argument) in seconds")
        }
        if let date = try? ISO8601Time.parse(argument), OverrideExpiry.storableRange.contains(date) {
            let text = JournalTime.text(date)
            guard let again = try? ISO8601Time.parse(text) else {
                FuzzCheck.fail("ISO8601Time does not read \(text), the journal's form of \(argument)")
            }
            FuzzCheck.equal(JournalTime.text(again), text, "time argument written and read")
        }
        // Civil dates: days since 1970 and back, for every day the readers accept (years 0 to 9999).
        guard data.count >= 4 else { return }
        let raw = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let days =
            raw % (CivilDate.days(year: 10_000, month: 1, day: 1) - CivilDate.days(year: 0, month: 1, day: 1))
            + CivilDate.days(year: 0, month: 1, day: 1)
        let civil = CivilDate.date(fromDays: days)
        guard (1...12).contains(civil.month), (1...31).contains(civil.day) else {
            FuzzCheck.fail("CivilDate.date(fromDays: \(days)) is \(civil)")
        }
        FuzzCheck.equal(CivilDate.days(year: civil.year, month: civil.month, day: civil.day), days, "days of \(civil)")
    }

    /// A journal of its own in the scratch folder, empty.
    private static func freshJournal(_ name: String) -> ChangeJournal {
        let journal = ChangeJournal(
            layout: StoreLayout.unresolved(FuzzScratch.folder.appendingPathComponent(name)), options: .init())
        for url in [journal.url, journal.rotatedURL] { try? FileManager.default.removeItem(at: url) }
        return journal
    }

    /// Writes entries to a fresh journal and reads them back; they must all read.
    private static func rewrite(_ entries: [JournalEntry], as name: String) -> [JournalEntry] {
        let journal = freshJournal(name)
        do {
            try journal.append(entries)
        } catch {
            FuzzCheck.fail("cannot append to the scratch journal: \(error)")
        }
        let contents = journal.read()
        if let problem = contents.problems.first {
            let text = (try? String(contentsOf: journal.url, encoding: .utf8)) ?? ""
            FuzzCheck.fail("a line the journal wrote does not read back: \(problem)\n\(text)")
        }
        return contents.entries
    }

    /// An entry with its times as the journal writes them (milliseconds).
    private static func normalized(_ entry: JournalEntry) -> JournalEntry {
        func ms(_ date: Date) -> Date { JournalTime.date(Array(JournalTime.text(date).utf8)) ?? date }
        var entry = entry
        entry.time = ms(entry.time)
        entry.oldExpiresAt = entry.oldExpiresAt.map(ms)
        entry.newExpiresAt = entry.newExpiresAt.map(ms)
        return entry
    }
}
