import Foundation

/// The journal's line format: one compact JSON object a line, members in a fixed order:
/// `{"time":"…","change":"…","key":"…","old":"on","new":null,"origin":"cli","user":"qa","pid":42,"command":"…"}`
/// (`oldExpires` and `newExpires` after `new` when an override had or has an expiry; then `keys`, the number of
/// lines of a change of more than one key, and `profile`, `undoes`, `redoes` when set).
///
/// The reader accepts members in any order and ignores members it does not know; it reads a line in a
/// single pass with ``JSONReader``.
enum JournalLine {
    /// The line for an entry, with its line feed.
    static func encode(_ entry: JournalEntry) -> String {
        var text = #"{"time":""# + JournalTime.text(entry.time) + #"","change":"#
        text += JSONText.quoted(entry.change) + #","key":"# + JSONText.quoted(entry.key)
        text += #","old":"# + (entry.old?.json ?? "null") + #","new":"# + (entry.new?.json ?? "null")
        text += expiryMembers(old: entry.oldExpiresAt, new: entry.newExpiresAt)
        text += #","origin":"# + JSONText.quoted(entry.origin.rawValue) + #","user":"# + JSONText.quoted(entry.user)
        text += #","pid":\#(entry.pid),"command":"# + JSONText.quoted(entry.command)
        if let keys = entry.changeKeyCount { text += #","keys":\#(keys)"# }
        if let profile = entry.profile { text += #","profile":"# + JSONText.quoted(profile) }
        if let undoes = entry.undoes { text += #","undoes":"# + JSONText.quoted(undoes) }
        if let redoes = entry.redoes { text += #","redoes":"# + JSONText.quoted(redoes) }
        return text + "}\n"
    }

    /// `,"oldExpires":"…","newExpires":"…"`, each only when set.
    static func expiryMembers(old: Date?, new: Date?) -> String {
        var text = ""
        if let old { text += #","oldExpires":""# + JournalTime.text(old) + "\"" }
        if let new { text += #","newExpires":""# + JournalTime.text(new) + "\"" }
        return text
    }

    /// A line that is not an entry: the JSON path and what was expected.
    struct Failure: Error {
        var reason: String
    }

    /// Reads one line (without its line feed).
    /// - Throws: ``Failure`` with the JSON path and what was expected.
    /// - Parameter cache: strings of the previous lines, reused when a line repeats them (every line of a
    ///   change repeats its id, origin, user and command).
    static func decode(_ line: UnsafeBufferPointer<UInt8>, cache: inout StringCache) throws(Failure) -> JournalEntry {
        // A byte-order mark (an editor may add one to the first line) is skipped, as RFC 8259 allows.
        let skip = line.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        guard let base = line.baseAddress, line.count > skip else { throw Failure(reason: "$: expected a JSON object") }
        var reader = JSONReader(base: base + skip, count: line.count - skip)
        do throws(ReadFailure) {
            reader.skipWhitespace()
            guard reader.byte == UInt8(ascii: "{") else { throw ReadFailure(message: "expected a JSON object") }
            let entry = try reader.readJournalEntry(cache: &cache)
            reader.skipWhitespace()
            guard reader.atEnd else { throw ReadFailure(message: "text after the object") }
            return entry
        } catch {
            let column = error.offset.map { " (column \(reader.lineAndColumn(of: $0).column + skip))" } ?? ""
            throw Failure(reason: "\(error.jsonPath): \(error.message)\(column)")
        }
    }

    /// The last string read in each repeated member, with its bytes.
    struct StringCache {
        var slots: [(bytes: [UInt8], text: String)] = Array(repeating: ([], ""), count: 5)
    }

    /// What an `old` or `new` member holds: an override's value, or `null` for no override (before a key was
    /// set, or after it was removed). A member not read yet is `nil`.
    enum Value {
        case override(OverrideValue)
        case noOverride

        /// The override's value, or `nil` for none.
        var override: OverrideValue? {
            if case .override(let value) = self { return value }
            return nil
        }
    }

    /// The members of a line.
    enum Field: String, CaseIterable {
        case time, change, key, old, new, origin, user, pid, command, keys, profile, undoes, redoes, oldExpires,
            newExpires
    }

    static let fields = FieldTable(Field.self)
}

extension JSONReader {
    /// A journal line's object (at `{`).
    mutating func readJournalEntry(cache: inout JournalLine.StringCache) throws(ReadFailure) -> JournalEntry {
        try open()
        var time: Date?
        var change: String?
        var key: String?
        var old: JournalLine.Value?
        var new: JournalLine.Value?
        var origin: String?
        var user = ""
        var pid: Int32 = 0
        var command = ""
        var profile: String?
        var undoes: String?
        var redoes: String?
        var keys: Int?
        var oldExpiresAt: Date?
        var newExpiresAt: Date?
        var state = ObjectState()
        let table = JournalLine.fields
        while let name = try nextFieldName(&state) {
            guard let index = fieldIndex(name, in: table) else {
                do throws(ReadFailure) { try skipValue() } catch { throw error.inside(.field(name.string)) }
                continue
            }
            let field = table.keys[index]
            do throws(ReadFailure) {
                switch field {
                case .time: time = try journalDate()
                case .change: change = try cachedString(0, cache: &cache)
                case .key: key = try readString()
                case .old: old = try journalValue()
                case .new: new = try journalValue()
                case .origin: origin = try cachedString(1, cache: &cache)
                case .user: user = try cachedString(2, cache: &cache)
                case .pid:
                    guard byte == UInt8(ascii: "-") || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")),
                        let number = Int32(try readNumberText().text)
                    else { throw ReadFailure(message: "expected a process id") }
                    pid = number
                case .command: command = try cachedString(3, cache: &cache)
                case .keys:
                    guard byte >= UInt8(ascii: "1") && byte <= UInt8(ascii: "9"),
                        let number = Int(try readNumberText().text)
                    else { throw ReadFailure(message: "expected the change's number of keys, a whole number from 1") }
                    keys = number
                case .profile: profile = try cachedString(4, cache: &cache)
                case .undoes: undoes = try readString()
                case .redoes: redoes = try readString()
                case .oldExpires: oldExpiresAt = try journalDate()
                case .newExpires: newExpiresAt = try journalDate()
                }
            } catch {
                throw error.inside(.field(field.rawValue))
            }
        }
        func missing(_ name: String) -> ReadFailure { ReadFailure(message: "missing \"\(name)\"") }
        guard let time else { throw missing("time") }
        guard let change, !change.isEmpty else { throw missing("change") }
        guard let key else { throw missing("key") }
        guard let old else { throw missing("old") }
        guard let new else { throw missing("new") }
        guard let origin else { throw missing("origin") }
        return JournalEntry(
            time: time, change: change, key: key, old: old.override, new: new.override,
            origin: ChangeOrigin(rawValue: origin),
            user: user, pid: pid, command: command, profile: profile, undoes: undoes, redoes: redoes,
            oldExpiresAt: oldExpiresAt, newExpiresAt: newExpiresAt, changeKeyCount: keys)
    }

    /// A string member, reusing the cached string when its bytes repeat the previous line's.
    private mutating func cachedString(_ slot: Int, cache: inout JournalLine.StringCache) throws(ReadFailure) -> String
    {
        guard byte == UInt8(ascii: "\"") else { throw try typeMismatch(expected: "a string") }
        switch try readStringToken() {
        case .raw(let bytes):
            if Self.same(bytes, cache.slots[slot].bytes) { return cache.slots[slot].text }
            let text = String(decoding: bytes, as: UTF8.self)
            cache.slots[slot] = (Array(bytes), text)
            return text
        case .decoded(let text):
            return text
        }
    }

    /// Whether `bytes` are `other`.
    private static func same(_ bytes: UnsafeBufferPointer<UInt8>, _ other: [UInt8]) -> Bool {
        guard bytes.count == other.count else { return false }
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return true }
        return other.withUnsafeBufferPointer { other in
            guard let otherStart = other.baseAddress else { return false }
            return Platform.compareBytes(start, otherStart, count: bytes.count) == 0
        }
    }

    /// A UTC time string.
    private mutating func journalDate() throws(ReadFailure) -> Date {
        let expected = "expected a UTC time like 2026-11-23T19:00:41.123Z"
        guard byte == UInt8(ascii: "\"") else { throw try typeMismatch(expected: String(expected.dropFirst(9))) }
        let date: Date? =
            switch try readStringToken() {
            case .raw(let bytes): JournalTime.date(buffer: bytes)
            case .decoded(let text): JournalTime.date(Array(text.utf8))
            }
        guard let date else { throw ReadFailure(message: expected) }
        return date
    }

    /// An override value or `null`.
    private mutating func journalValue() throws(ReadFailure) -> JournalLine.Value {
        do throws(ReadFailure) {
            return try readNull() ? .noOverride : .override(try readOverrideValue())
        } catch {
            var failure = error
            failure.message = "expected a JSON value (\(error.message))"
            throw failure
        }
    }
}
