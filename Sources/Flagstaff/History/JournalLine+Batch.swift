/// Encoding a whole change at once.
extension JournalLine {
    /// The lines of `entries`, as ``encode(_:)`` writes each, with the members that lines of one change share
    /// (time, change id, origin, user, process, command, profile, undo links) encoded once: a change of 100,000
    /// keys then costs its keys and values, not 100,000 copies of the rest.
    /// - Parameter entries: the entries, in order.
    /// - Returns: the lines, each ending in a line feed.
    static func encode(_ entries: [JournalEntry]) -> String {
        var text = ""
        var shared: (entry: JournalEntry, head: String, tail: String)?
        for entry in entries {
            if shared.map({ !Self.sharesMembers($0.entry, entry) }) ?? true {
                shared = (entry, Self.head(entry), Self.tail(entry))
                if text.isEmpty { text.reserveCapacity(entries.count * (shared!.head.utf8.count + 96)) }
            }
            guard let parts = shared else { continue }
            text += parts.head
            text += JSONText.quoted(entry.key)
            text += #","old":"#
            text += entry.old?.json ?? "null"
            text += #","new":"#
            text += entry.new?.json ?? "null"
            text += expiryMembers(old: entry.oldExpiresAt, new: entry.newExpiresAt)
            text += parts.tail
        }
        return text
    }

    /// The lines of one change, as ``encode(_:)`` writes them for entries that share every member of `shared`
    /// but the key and the values, written straight from the store's changes (no entry is made per key) and handed
    /// to `emit` in pieces of about 256 KiB of whole lines (one buffer, reused).
    /// - Parameters:
    ///   - changes: the keys with their old and new values.
    ///   - order: the positions in `changes` to write, in order.
    ///   - shared: the members every line has (its key and values are ignored).
    ///   - emit: called with each piece.
    static func encode(
        _ changes: [StoreSnapshot.ValueChange], order: [Int], shared: JournalEntry,
        emit: (UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        let head = Array(Self.head(shared).utf8)
        let tail = Array(Self.tail(shared).utf8)
        var piece = LinePiece(capacity: 256 << 10)
        defer { piece.free() }
        for index in order {
            let change = changes[index]
            var key = change.key
            var old = change.old?.json ?? "null"
            var new = change.new?.json ?? "null"
            let expiry =
                change.oldExpiresAt != nil || change.newExpiresAt != nil
                ? expiryMembers(old: change.oldExpiresAt, new: change.newExpiresAt) : ""
            // The most a line can take: a key escaped as `\uXXXX` throughout.
            let most =
                head.count + tail.count + key.utf8.count * 6 + 2 + old.utf8.count + new.utf8.count + expiry.utf8.count
                + 16
            if !piece.fits(most) {
                if piece.count > 0 { try piece.flush(emit) }
                guard piece.fits(most) else {
                    // One line larger than a piece (a huge JSON value): written on its own.
                    var entry = shared
                    (entry.key, entry.old, entry.new) = (change.key, change.old, change.new)
                    (entry.oldExpiresAt, entry.newExpiresAt) = (change.oldExpiresAt, change.newExpiresAt)
                    var line = Self.encode(entry)
                    try line.withUTF8 { try emit($0) }
                    continue
                }
            }
            piece.append(head)
            key.withUTF8 { bytes in
                if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
                    piece.append(0x22)
                    piece.append(bytes)
                    piece.append(0x22)
                } else {
                    var quoted = JSONText.quoted(change.key)
                    quoted.withUTF8 { piece.append($0) }
                }
            }
            piece.append(Self.oldName)
            old.withUTF8 { piece.append($0) }
            piece.append(Self.newName)
            new.withUTF8 { piece.append($0) }
            if !expiry.isEmpty {
                var expiry = expiry
                expiry.withUTF8 { piece.append($0) }
            }
            piece.append(tail)
            if piece.count >= piece.target { try piece.flush(emit) }
        }
        if piece.count > 0 { try piece.flush(emit) }
    }

    private static let oldName = Array(#","old":"#.utf8)
    private static let newName = Array(#","new":"#.utf8)

    /// Whole lines gathered in one buffer until about `target` bytes, then handed on: writing a line is a few
    /// copies into memory, not a growing array's appends.
    private struct LinePiece {
        let target: Int
        let capacity: Int
        let start: UnsafeMutablePointer<UInt8>
        var count = 0

        init(capacity target: Int) {
            self.target = target
            capacity = target + (64 << 10)
            start = .allocate(capacity: capacity)
        }

        func free() { start.deallocate() }

        func fits(_ bytes: Int) -> Bool { count + bytes <= capacity }

        mutating func append(_ byte: UInt8) {
            start[count] = byte
            count += 1
        }

        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            (start + count).update(from: base, count: bytes.count)
            count += bytes.count
        }

        mutating func append(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { append($0) }
        }

        mutating func flush(_ emit: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
            try emit(UnsafeBufferPointer(start: start, count: count))
            count = 0
        }
    }

    /// Whether two entries agree on every member but the key and the values.
    private static func sharesMembers(_ a: JournalEntry, _ b: JournalEntry) -> Bool {
        a.time == b.time && a.change == b.change && a.origin == b.origin && a.user == b.user && a.pid == b.pid
            && a.command == b.command && a.profile == b.profile && a.undoes == b.undoes && a.redoes == b.redoes
            && a.changeKeyCount == b.changeKeyCount
    }

    /// `{"time":…,"change":…,"key":` — what comes before the key.
    private static func head(_ entry: JournalEntry) -> String {
        #"{"time":""# + JournalTime.text(entry.time) + #"","change":"# + JSONText.quoted(entry.change) + #","key":"#
    }

    /// `,"origin":…}` and the line feed — what comes after the values.
    private static func tail(_ entry: JournalEntry) -> String {
        var text = #","origin":"# + JSONText.quoted(entry.origin.rawValue) + #","user":"# + JSONText.quoted(entry.user)
        text += #","pid":\#(entry.pid),"command":"# + JSONText.quoted(entry.command)
        if let keys = entry.changeKeyCount { text += #","keys":\#(keys)"# }
        if let profile = entry.profile { text += #","profile":"# + JSONText.quoted(profile) }
        if let undoes = entry.undoes { text += #","undoes":"# + JSONText.quoted(undoes) }
        if let redoes = entry.redoes { text += #","redoes":"# + JSONText.quoted(redoes) }
        return text + "}\n"
    }
}
