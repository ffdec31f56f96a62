import Foundation

/// A store's change journal: `<store>.history.jsonl` beside the store file (beside the file a symbolic link
/// names), one ``JournalEntry`` a line, and the previous journal `<store>.history.jsonl.1` after a rotation.
///
/// - Lines are appended by the store's writer while it holds the store's lock, in one `write` per change, so
///   several processes never interleave lines and a change's lines stay together.
/// - A line torn by a crash (no line feed at the end of the file) is ignored by readers and cut off by the next
///   append.
/// - When the journal has reached ``JournalOptions/maxBytes`` it is renamed to `.1` (dropping the previous
///   `.1`) before the next change is appended.
/// - The journal is not `fsync`ed (the store file is): after a power cut its last lines may be missing.
/// - A line that is not an entry is reported by ``read()`` with its line number and skipped; it never stops a
///   write.
package struct ChangeJournal: Sendable {
    /// The journal file.
    package let url: URL
    /// The rotation size and default origin.
    package let options: JournalOptions

    /// The store file whose journal this is (the end of its chain of symbolic links): a new journal gets its owner.
    private let storeTarget: String

    /// The journal of a store file, ``StoreLayout/journal``.
    /// - Parameters:
    ///   - layout: the store's files.
    ///   - options: rotation size and default origin.
    package init(layout: StoreLayout, options: JournalOptions) {
        self.url = layout.journal
        self.rotatedURL = layout.rotatedJournal
        self.storeTarget = layout.target
        self.options = options
    }

    /// The previous journal, kept after a rotation (``StoreLayout/rotatedJournal``).
    package let rotatedURL: URL

    /// What ``read()`` found.
    package struct Contents: Sendable, Equatable {
        /// The changes, oldest first: consecutive lines with one change id (see ``HistoryChange/group(_:)``).
        package var changes: [HistoryChange]
        /// Lines that could not be read (skipped).
        package var problems: [JournalProblem]
        /// Journal files that exist but could not be read at all (a directory or a link in the journal's place, no
        /// permission): their changes are missing from ``changes``.
        package var unreadableFiles: [JournalProblem] = []

        /// Every readable line, oldest first (the rotated journal's, then the current one's).
        package var entries: [JournalEntry] { changes.flatMap(\.entries) }

        /// Adds a line to the last change if it continues it, else as a new change.
        mutating func append(_ entry: JournalEntry) {
            if let last = changes.indices.last, changes[last].id == entry.change {
                changes[last].entries.append(entry)
            } else {
                changes.append(HistoryChange(id: entry.change, entries: [entry]))
            }
        }
    }

    /// Reads the rotated and the current journal. Missing files are empty; unreadable ones are reported.
    /// - Returns: the entries and the lines that could not be read.
    package func read() -> Contents {
        var contents = Contents(changes: [], problems: [])
        for file in [rotatedURL.path, url.path] {
            Self.read(file: file, into: &contents)
        }
        return contents
    }

    /// The largest tail of a journal file that is read (a larger file, which only a hand-made or foreign file
    /// can be, is read from its end).
    static let readLimit = 256 << 20

    private static func read(file: String, into contents: inout Contents) {
        let fd: Int32
        do throws(BoundedFileReader.Failure) {
            guard let opened = try BoundedFileReader.open(file, followingLinks: false) else { return }
            fd = opened
        } catch {
            let problem = JournalProblem(file: file, line: 0, reason: "cannot read: " + error.reason(limit: readLimit))
            contents.problems.append(problem)
            contents.unreadableFiles.append(problem)
            return
        }
        defer { Platform.closeFile(fd) }
        guard let info = try? Platform.status(ofDescriptor: fd) else { return }
        let size = Int(info.size)
        let start = max(0, size - readLimit)
        var data = [UInt8](repeating: 0, count: size - start)
        var offset = 0
        while offset < data.count {
            let count = data.withUnsafeMutableBytes {
                try? Platform.readSome(
                    fd, into: UnsafeMutableRawBufferPointer(rebasing: $0[offset...]), at: start + offset)
            }
            guard let count, count > 0 else { break }
            offset += count
        }
        data.removeSubrange(offset...)
        data.withUnsafeBufferPointer { buffer in
            var lineStart = 0
            if start > 0, let newline = buffer.firstIndex(of: 0x0A) {
                lineStart = newline + 1  // a partial first line of a tail
                contents.problems.append(
                    JournalProblem(
                        file: file, line: 0, reason: "larger than \(readLimit >> 20) MiB; only its end was read"))
            }
            // A large journal is read in two halves at once (split at a line's end), then joined in order.
            let middle = lineStart + (buffer.count - lineStart) / 2
            let split =
                buffer.count - lineStart >= parallelReadThreshold
                ? buffer[middle...].firstIndex(of: 0x0A).map { $0 + 1 } : nil
            let parts =
                split.map { [lineStart..<$0, $0..<buffer.count] } ?? [lineStart..<buffer.count]
            let lines = Lines(buffer: buffer)
            let decoded = AnnotatedMutex([DecodedLines](repeating: DecodedLines(), count: parts.count))
            DispatchQueue.concurrentPerform(iterations: parts.count) { part in
                let result = lines.decode(parts[part], file: file)
                decoded.withLock { $0[part] = result }
            }
            var linesBefore = 0
            for part in decoded.withLock({ $0 }) {
                for entry in part.entries { contents.append(entry) }
                for var problem in part.problems {
                    problem.line += linesBefore
                    contents.problems.append(problem)
                }
                linesBefore += part.lineCount
            }
        }
    }

    /// From this many bytes, a journal file is decoded on two threads.
    static let parallelReadThreshold = 1 << 20

    /// What one range of a journal file decodes to: its entries, the lines that are not entries (numbered from the
    /// range's first line), and how many lines it has.
    private struct DecodedLines: Sendable {
        var entries: [JournalEntry] = []
        var problems: [JournalProblem] = []
        var lineCount = 0
    }

    /// A journal file's bytes, read-only while ranges of it are decoded on several threads.
    private struct Lines: @unchecked Sendable {
        // @unchecked: the buffer is only read, and outlives every thread reading it (`concurrentPerform` returns
        // after all have).
        let buffer: UnsafeBufferPointer<UInt8>

        /// Decodes the whole lines of `range` (a torn last line, without a line feed, is left out).
        func decode(_ range: Range<Int>, file: String) -> DecodedLines {
            var result = DecodedLines()
            result.entries.reserveCapacity(range.count / 160)
            var cache = JournalLine.StringCache()
            var lineStart = range.lowerBound
            while lineStart < range.upperBound {
                guard let newline = buffer[lineStart..<range.upperBound].firstIndex(of: 0x0A) else { break }
                result.lineCount += 1
                let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<newline])
                lineStart = newline + 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                do throws(JournalLine.Failure) {
                    result.entries.append(try JournalLine.decode(line, cache: &cache))
                } catch {
                    result.problems.append(JournalProblem(file: file, line: result.lineCount, reason: error.reason))
                }
            }
            return result
        }
    }

    /// Appends one change's lines. The caller holds the store's lock.
    /// - Throws: an `OverrideStoreError.unwritable` naming the journal.
    package func append(_ entries: [JournalEntry]) throws {
        guard !entries.isEmpty else { return }
        try append(lines: Array(JournalLine.encode(entries).utf8))
    }

    /// Appends lines already encoded (``JournalLine``), each ending in a line feed. The caller holds the store's
    /// lock.
    /// - Throws: an `OverrideStoreError.unwritable` naming the journal.
    package func append(lines bytes: [UInt8]) throws {
        guard !bytes.isEmpty else { return }
        try append { emit in try bytes.withUnsafeBufferPointer { try emit($0) } }
    }

    /// Appends the lines `produce` hands to its `emit` function, in pieces (each piece whole lines ending in a line
    /// feed), written as they come: a change of 100,000 keys is never held whole in memory. The caller holds the
    /// store's lock.
    /// - Throws: an `OverrideStoreError.unwritable` naming the journal.
    package func append(
        _ produce: (_ emit: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Void
    ) throws {
        let path = url.path
        func failure(_ what: String, _ error: SystemError) -> OverrideStoreError {
            .unwritable(path: path, reason: "\(what): \(error)")
        }
        func refusal(_ failure: OwnFile.Failure) -> OverrideStoreError {
            .unwritable(path: path, reason: "cannot open the journal: \(failure.reason)")
        }
        var fd: Int32
        do throws(OwnFile.Failure) {
            fd = try OwnFile.openForWriting(path, create: true, append: true)
        } catch {
            throw refusal(error)
        }
        defer { Platform.closeFile(fd) }
        var info: FileStatus
        do throws(SystemError) {
            info = try Platform.status(ofDescriptor: fd)
        } catch {
            throw failure("cannot inspect the journal", error)
        }
        if Int(info.size) >= options.maxBytes {
            // The rotated name is replaced, never written through: a link there goes, what it names stays.
            do throws(SystemError) {
                try Platform.renameItem(path, to: rotatedURL.path)
            } catch {
                throw failure("cannot rotate the journal", error)
            }
            Platform.closeFile(fd)
            do throws(OwnFile.Failure) {
                fd = try OwnFile.openForWriting(path, create: true, append: true)
            } catch {
                fd = -1
                throw refusal(error)
            }
            info.size = 0
        }
        if info.size == 0 { keepStoreOwner(fd) }
        if info.size > 0 { try Self.cutTornLine(fd, size: Int(info.size), failure: failure) }
        try produce { bytes in
            do throws(SystemError) {
                try Platform.writeAll(fd, UnsafeRawBufferPointer(bytes))
            } catch {
                throw failure("cannot append to the journal", error)
            }
        }
    }

    /// Root writing another user's store leaves a new journal to the store's owner, as the store and its lock.
    private func keepStoreOwner(_ fd: Int32) {
        guard Platform.effectiveUserID == 0,
            let owner = try? Platform.status(atPath: storeTarget, followingLinks: true),
            let journal = try? Platform.status(ofDescriptor: fd),
            journal.owner != owner.owner || journal.group != owner.group
        else { return }
        try? Platform.changeOwner(fd, owner: owner.owner, group: owner.group)
    }

    /// Cuts a last line without a line feed (a writer killed mid-append) back to the end of the last whole line.
    private static func cutTornLine(
        _ fd: Int32, size: Int, failure: (String, SystemError) -> OverrideStoreError
    ) throws {
        do throws(SystemError) {
            var last: [UInt8] = [0]
            guard try Platform.readSome(fd, into: &last, at: size - 1) == 1 else {
                throw SystemError.unexpectedEnd
            }
            guard last[0] != 0x0A else { return }
            var end = size
            while end > 0 {
                let start = max(0, end - 64 * 1024)
                var chunk = [UInt8](repeating: 0, count: end - start)
                let count = try Platform.readSome(fd, into: &chunk, at: start)
                guard count == chunk.count else { throw SystemError.unexpectedEnd }
                if let newline = chunk[0..<count].lastIndex(of: 0x0A) {
                    try Platform.truncateFile(fd, to: start + newline + 1)
                    return
                }
                end = start
            }
            try Platform.truncateFile(fd, to: 0)
        } catch {
            throw failure("cannot repair the journal", error)
        }
    }
}
