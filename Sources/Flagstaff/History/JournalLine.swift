import Foundation

/// The journal's line format: one compact JSON object a line, members in a fixed order:
/// `{"time":"…","change":"…","key":"…","old":"on","new":null,"origin":"cli","user":"qa","pid":42,"command":"…"}`
/// (`oldExpires` and `newExpires` after `new` when an override had or has an expiry; then `profile`, `undoes`,
/// `redoes` when set).
///
/// The reader accepts members in any order and ignores members it does not know; it reads a line in a
/// single pass without `JSONSerialization` (100,000 lines in well under the 300 ms `history` may take).
enum JournalLine {
    /// The line for an entry, with its line feed.
    static func encode(_ entry: JournalEntry) -> String {
        var text = #"{"time":""# + JournalTime.text(entry.time) + #"","change":"#
        text += JSONText.quoted(entry.change) + #","key":"# + JSONText.quoted(entry.key)
        text += #","old":"# + (entry.old?.json ?? "null") + #","new":"# + (entry.new?.json ?? "null")
        text += expiryMembers(old: entry.oldExpiresAt, new: entry.newExpiresAt)
        text += #","origin":"# + JSONText.quoted(entry.origin.rawValue) + #","user":"# + JSONText.quoted(entry.user)
        text += #","pid":\#(entry.pid),"command":"# + JSONText.quoted(entry.command)
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
        var reader = Reader(bytes: line)
        return try reader.entry(cache: &cache)
    }

    /// The last string read in each repeated member, with its bytes.
    struct StringCache {
        var slots: [(bytes: [UInt8], text: String)] = Array(repeating: ([], ""), count: 5)
    }

    private static let names: [[UInt8]] = [
        "time", "change", "key", "old", "new", "origin", "user", "pid", "command", "profile", "undoes", "redoes",
        "oldExpires", "newExpires",
    ].map { Array($0.utf8) }

    /// `null`, `"on"` and `"off"`: most values of a journal.
    private static let null = Array("null".utf8)
    private static let on = Array(#""on""#.utf8)
    private static let off = Array(#""off""#.utf8)

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        /// The index of a member name in ``JournalLine/names``, or `nil` for another member.
        func nameIndex(_ range: Range<Int>) -> Int? {
            // Narrowed by length and first byte first: every line has nine members, so this runs 900,000 times
            // for a 100,000-line journal.
            let candidate: Int
            switch (range.count, range.isEmpty ? 0 : bytes[range.lowerBound]) {
            case (4, UInt8(ascii: "t")): candidate = 0
            case (6, UInt8(ascii: "c")): candidate = 1
            case (3, UInt8(ascii: "k")): candidate = 2
            case (3, UInt8(ascii: "o")): candidate = 3
            case (3, UInt8(ascii: "n")): candidate = 4
            case (6, UInt8(ascii: "o")): candidate = 5
            case (4, UInt8(ascii: "u")): candidate = 6
            case (3, UInt8(ascii: "p")): candidate = 7
            case (7, UInt8(ascii: "c")): candidate = 8
            case (7, UInt8(ascii: "p")): candidate = 9
            case (6, UInt8(ascii: "u")): candidate = 10
            case (6, UInt8(ascii: "r")): candidate = 11
            case (10, UInt8(ascii: "o")): candidate = 12
            case (10, UInt8(ascii: "n")): candidate = 13
            default: return nil
            }
            return Self.same(range, JournalLine.names[candidate], in: bytes) ? candidate : nil
        }

        /// Whether the bytes in `range` are `other`.
        static func same(_ range: Range<Int>, _ other: [UInt8], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard range.count == other.count else { return false }
            guard let base = bytes.baseAddress, !range.isEmpty else { return true }
            return other.withUnsafeBufferPointer { other in
                guard let start = other.baseAddress else { return false }
                return memcmp(base + range.lowerBound, start, range.count) == 0
            }
        }

        /// A string member, reusing the cached string when its bytes repeat the previous line's.
        mutating func cachedString(_ slot: Int, path: String, cache: inout StringCache) throws(Failure) -> String {
            let (range, escaped) = try rawString(path: path)
            if Self.same(range, cache.slots[slot].bytes, in: bytes) { return cache.slots[slot].text }
            let text = try decodeString(range, escaped: escaped, path: path)
            cache.slots[slot] = (Array(UnsafeBufferPointer(rebasing: bytes[range])), text)
            return text
        }

        mutating func entry(cache: inout StringCache) throws(Failure) -> JournalEntry {
            // A byte-order mark (an editor may add one to the first line) is skipped, as RFC 8259 allows.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
            skipSpace()
            guard next() == UInt8(ascii: "{") else { throw Failure(reason: "$: expected a JSON object") }
            var time: Date?
            var change: String?
            var key: String?
            var old: OverrideValue??
            var new: OverrideValue??
            var origin: String?
            var user = ""
            var pid: Int32 = 0
            var command = ""
            var profile: String?
            var undoes: String?
            var redoes: String?
            var oldExpiresAt: Date?
            var newExpiresAt: Date?
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                position += 1
            } else {
                while true {
                    skipSpace()
                    guard peek() == UInt8(ascii: "\"") else { throw Failure(reason: "$: expected a member name") }
                    let (nameRange, nameEscaped) = try rawString(path: "$")
                    let index = nameEscaped ? nil : nameIndex(nameRange)
                    skipSpace()
                    guard next() == UInt8(ascii: ":") else {
                        throw Failure(
                            reason: "$.\(try decodeString(nameRange, escaped: nameEscaped, path: "$")): expected ':'")
                    }
                    skipSpace()
                    switch index {
                    case 0: time = try date(path: "$.time")
                    case 1: change = try cachedString(0, path: "$.change", cache: &cache)
                    case 2: key = try string(path: "$.key")
                    case 3: old = .some(try value(path: "$.old"))
                    case 4: new = .some(try value(path: "$.new"))
                    case 5: origin = try cachedString(1, path: "$.origin", cache: &cache)
                    case 6: user = try cachedString(2, path: "$.user", cache: &cache)
                    case 7:
                        let range = try skipValue(path: "$.pid")
                        guard
                            let number = Int32(
                                String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
                        else { throw Failure(reason: "$.pid: expected a process id") }
                        pid = number
                    case 8: command = try cachedString(3, path: "$.command", cache: &cache)
                    case 9: profile = try cachedString(4, path: "$.profile", cache: &cache)
                    case 10: undoes = try string(path: "$.undoes")
                    case 11: redoes = try string(path: "$.redoes")
                    case 12: oldExpiresAt = try date(path: "$.oldExpires")
                    case 13: newExpiresAt = try date(path: "$.newExpires")
                    default:
                        _ = try skipValue(path: "$.\(try decodeString(nameRange, escaped: nameEscaped, path: "$"))")
                    }
                    skipSpace()
                    let separator = next()
                    if separator == UInt8(ascii: "}") { break }
                    guard separator == UInt8(ascii: ",") else { throw Failure(reason: "$: expected ',' or '}'") }
                }
            }
            skipSpace()
            guard position == bytes.count else { throw Failure(reason: "$: text after the object") }
            guard let time else { throw Failure(reason: #"$: missing "time""#) }
            guard let change, !change.isEmpty else { throw Failure(reason: #"$: missing "change""#) }
            guard let key else { throw Failure(reason: #"$: missing "key""#) }
            guard let old else { throw Failure(reason: #"$: missing "old""#) }
            guard let new else { throw Failure(reason: #"$: missing "new""#) }
            guard let origin else { throw Failure(reason: #"$: missing "origin""#) }
            return JournalEntry(
                time: time, change: change, key: key, old: old, new: new, origin: ChangeOrigin(rawValue: origin),
                user: user, pid: pid, command: command, profile: profile, undoes: undoes, redoes: redoes,
                oldExpiresAt: oldExpiresAt, newExpiresAt: newExpiresAt)
        }

        /// A UTC time string at `position`.
        mutating func date(path: String) throws(Failure) -> Date {
            let (range, _) = try rawString(path: path)
            guard let date = JournalTime.date(buffer: UnsafeBufferPointer(rebasing: bytes[range])) else {
                throw Failure(reason: "\(path): expected a UTC time like 2026-11-23T19:00:41.123Z")
            }
            return date
        }

        func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func next() -> UInt8? {
            guard position < bytes.count else { return nil }
            defer { position += 1 }
            return bytes[position]
        }

        mutating func skipSpace() {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A { position += 1 }
        }

        /// A JSON string at `position`, decoded.
        mutating func string(path: String) throws(Failure) -> String {
            let (range, escaped) = try rawString(path: path)
            return try decodeString(range, escaped: escaped, path: path)
        }

        /// Skips a JSON string at `position`: the range of its contents and whether it has escapes.
        mutating func rawString(path: String) throws(Failure) -> (Range<Int>, Bool) {
            guard next() == UInt8(ascii: "\"") else { throw Failure(reason: "\(path): expected a string") }
            let start = position
            var escaped = false
            // A plain loop over the bytes: every line has eight or more strings.
            guard let base = bytes.baseAddress else { throw Failure(reason: "\(path): unterminated string") }
            var index = position
            while index < bytes.count {
                let byte = base[index]
                index += 1
                if byte == UInt8(ascii: "\"") {
                    position = index
                    return (start..<(index - 1), escaped)
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                } else if byte < 0x20 {
                    position = index
                    throw Failure(reason: "\(path): control character in a string")
                }
            }
            position = bytes.count
            throw Failure(reason: "\(path): unterminated string")
        }

        /// The text of a string's contents.
        func decodeString(_ range: Range<Int>, escaped: Bool, path: String) throws(Failure) -> String {
            let raw = UnsafeBufferPointer(rebasing: bytes[range])
            if !escaped { return String(decoding: raw, as: UTF8.self) }
            guard
                let text = try? JSONValue.read(Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")])) as? String
            else { throw Failure(reason: "\(path): expected a valid JSON string") }
            return text
        }

        /// An override value or `null` at `position`.
        mutating func value(path: String) throws(Failure) -> OverrideValue? {
            let range = try skipValue(path: path)
            let raw = UnsafeBufferPointer(rebasing: bytes[range])
            if Self.same(range, JournalLine.null, in: bytes) { return nil }
            if Self.same(range, JournalLine.on, in: bytes) { return .on }
            if Self.same(range, JournalLine.off, in: bytes) { return .off }
            if Self.isCanonical(raw) { return OverrideValue(canonical: String(decoding: raw, as: UTF8.self)) }
            do {
                return try OverrideValue(json: String(decoding: raw, as: UTF8.self))
            } catch {
                throw Failure(reason: "\(path): expected a JSON value (\(error.reason))")
            }
        }

        /// Whether `raw` is already canonical: a short integer, or a string of printable ASCII without escapes.
        static func isCanonical(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = raw.first else { return false }
            if first == UInt8(ascii: "\"") {
                guard raw.count >= 2, raw.last == UInt8(ascii: "\"") else { return false }
                return raw.dropFirst().dropLast().allSatisfy {
                    $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
                }
            }
            let digits = first == UInt8(ascii: "-") ? raw.dropFirst() : raw[...]
            guard let lead = digits.first, digits.count <= 18, lead != UInt8(ascii: "0") || digits.count == 1 else {
                return false
            }
            return digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }

        /// Skips one JSON value (checking only its nesting and strings), returning its range.
        mutating func skipValue(path: String) throws(Failure) -> Range<Int> {
            let start = position
            var depth = 0
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    _ = try rawString(path: path)
                    if depth == 0 { return start..<position }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 {
                        guard position > start else { throw Failure(reason: "\(path): expected a JSON value") }
                        return start..<position
                    }
                    depth -= 1
                    if depth == 0 {
                        position += 1
                        return start..<position
                    }
                case UInt8(ascii: ","):
                    if depth == 0 {
                        guard position > start else { throw Failure(reason: "\(path): expected a JSON value") }
                        return start..<position
                    }
                case 0x20, 0x09, 0x0D, 0x0A:
                    if depth == 0 {
                        guard position > start else { throw Failure(reason: "\(path): expected a JSON value") }
                        return start..<position
                    }
                default:
                    break
                }
                position += 1
            }
            guard depth == 0, position > start else { throw Failure(reason: "\(path): unterminated value") }
            return start..<position
        }
    }
}
