import Foundation

/// The journal's line format: one compact JSON object a line, members in a fixed order:
/// `{"time":"…","change":"…","key":"…","old":"on","new":null,"origin":"cli","user":"qa","pid":42,"command":"…"}`
/// (then `profile`, `undoes`, `redoes` when set).
///
/// The reader accepts members in any order and ignores members it does not know; it reads a line in a
/// single pass without `JSONSerialization` (100,000 lines in well under the 300 ms `history` may take).
enum JournalLine {
    /// The line for an entry, with its line feed.
    static func encode(_ entry: JournalEntry) -> String {
        var text = #"{"time":""# + JournalTime.text(entry.time) + #"","change":"#
        text += JSONText.quoted(entry.change) + #","key":"# + JSONText.quoted(entry.key)
        text += #","old":"# + (entry.old?.json ?? "null") + #","new":"# + (entry.new?.json ?? "null")
        text += #","origin":"# + JSONText.quoted(entry.origin.rawValue) + #","user":"# + JSONText.quoted(entry.user)
        text += #","pid":\#(entry.pid),"command":"# + JSONText.quoted(entry.command)
        if let profile = entry.profile { text += #","profile":"# + JSONText.quoted(profile) }
        if let undoes = entry.undoes { text += #","undoes":"# + JSONText.quoted(undoes) }
        if let redoes = entry.redoes { text += #","redoes":"# + JSONText.quoted(redoes) }
        return text + "}\n"
    }

    /// A line that is not an entry: the JSON path and what was expected.
    struct Failure: Error {
        var reason: String
    }

    /// Reads one line (without its line feed).
    /// - Throws: ``Failure`` with the JSON path and what was expected.
    static func decode(_ line: UnsafeBufferPointer<UInt8>) throws(Failure) -> JournalEntry {
        var reader = Reader(bytes: line)
        return try reader.entry()
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func entry() throws(Failure) -> JournalEntry {
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
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                position += 1
            } else {
                while true {
                    skipSpace()
                    guard peek() == UInt8(ascii: "\"") else { throw Failure(reason: "$: expected a member name") }
                    let name = try string(path: "$")
                    skipSpace()
                    guard next() == UInt8(ascii: ":") else { throw Failure(reason: "$.\(name): expected ':'") }
                    skipSpace()
                    switch name {
                    case "time":
                        let text = try string(path: "$.time")
                        guard let date = JournalTime.date(Array(text.utf8)) else {
                            throw Failure(reason: "$.time: expected a UTC time like 2026-11-23T19:00:41.123Z")
                        }
                        time = date
                    case "change": change = try string(path: "$.change")
                    case "key": key = try string(path: "$.key")
                    case "old": old = .some(try value(path: "$.old"))
                    case "new": new = .some(try value(path: "$.new"))
                    case "origin": origin = try string(path: "$.origin")
                    case "user": user = try string(path: "$.user")
                    case "command": command = try string(path: "$.command")
                    case "profile": profile = try string(path: "$.profile")
                    case "undoes": undoes = try string(path: "$.undoes")
                    case "redoes": redoes = try string(path: "$.redoes")
                    case "pid":
                        let range = try skipValue(path: "$.pid")
                        guard
                            let number = Int32(
                                String(
                                    decoding: UnsafeBufferPointer(rebasing: bytes[range]),
                                    as: UTF8.self))
                        else { throw Failure(reason: "$.pid: expected a process id") }
                        pid = number
                    default:
                        _ = try skipValue(path: "$.\(name)")
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
                user: user, pid: pid, command: command, profile: profile, undoes: undoes, redoes: redoes)
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
            guard next() == UInt8(ascii: "\"") else { throw Failure(reason: "\(path): expected a string") }
            let start = position
            var escaped = false
            while let byte = next() {
                if byte == UInt8(ascii: "\"") {
                    let raw = UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
                    if !escaped { return String(decoding: raw, as: UTF8.self) }
                    guard
                        let text = try? JSONValue.read(Data([UInt8(ascii: "\"")] + raw + [UInt8(ascii: "\"")]))
                            as? String
                    else { throw Failure(reason: "\(path): expected a valid JSON string") }
                    return text
                }
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    position += 1
                } else if byte < 0x20 {
                    throw Failure(reason: "\(path): control character in a string")
                }
            }
            throw Failure(reason: "\(path): unterminated string")
        }

        /// An override value or `null` at `position`.
        mutating func value(path: String) throws(Failure) -> OverrideValue? {
            let range = try skipValue(path: path)
            let raw = UnsafeBufferPointer(rebasing: bytes[range])
            if raw.elementsEqual("null".utf8) { return nil }
            if raw.elementsEqual(#""on""#.utf8) { return .on }
            if raw.elementsEqual(#""off""#.utf8) { return .off }
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
                    _ = try string(path: path)
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
