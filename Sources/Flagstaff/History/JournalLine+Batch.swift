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
        let pieceSize = 256 << 10
        var bytes: [UInt8] = []
        bytes.reserveCapacity(pieceSize + 4096)
        for index in order {
            let change = changes[index]
            bytes.append(contentsOf: head)
            JSONText.appendQuoted(change.key, to: &bytes)
            bytes.append(contentsOf: #","old":"#.utf8)
            bytes.append(contentsOf: (change.old?.json ?? "null").utf8)
            bytes.append(contentsOf: #","new":"#.utf8)
            bytes.append(contentsOf: (change.new?.json ?? "null").utf8)
            if change.oldExpiresAt != nil || change.newExpiresAt != nil {
                bytes.append(contentsOf: expiryMembers(old: change.oldExpiresAt, new: change.newExpiresAt).utf8)
            }
            bytes.append(contentsOf: tail)
            if bytes.count >= pieceSize {
                try bytes.withUnsafeBufferPointer { try emit($0) }
                bytes.removeAll(keepingCapacity: true)
            }
        }
        if !bytes.isEmpty { try bytes.withUnsafeBufferPointer { try emit($0) } }
    }

    /// Whether two entries agree on every member but the key and the values.
    private static func sharesMembers(_ a: JournalEntry, _ b: JournalEntry) -> Bool {
        a.time == b.time && a.change == b.change && a.origin == b.origin && a.user == b.user && a.pid == b.pid
            && a.command == b.command && a.profile == b.profile && a.undoes == b.undoes && a.redoes == b.redoes
    }

    /// `{"time":…,"change":…,"key":` — what comes before the key.
    private static func head(_ entry: JournalEntry) -> String {
        #"{"time":""# + JournalTime.text(entry.time) + #"","change":"# + JSONText.quoted(entry.change) + #","key":"#
    }

    /// `,"origin":…}` and the line feed — what comes after the values.
    private static func tail(_ entry: JournalEntry) -> String {
        var text = #","origin":"# + JSONText.quoted(entry.origin.rawValue) + #","user":"# + JSONText.quoted(entry.user)
        text += #","pid":\#(entry.pid),"command":"# + JSONText.quoted(entry.command)
        if let profile = entry.profile { text += #","profile":"# + JSONText.quoted(profile) }
        if let undoes = entry.undoes { text += #","undoes":"# + JSONText.quoted(undoes) }
        if let redoes = entry.redoes { text += #","redoes":"# + JSONText.quoted(redoes) }
        return text + "}\n"
    }
}
