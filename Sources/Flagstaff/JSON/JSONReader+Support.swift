/// Failures, paths, string tokens and field tables of `JSONReader`.

/// Why the reader stopped: a message, the JSON path (collected innermost first while unwinding) and, for
/// syntax errors, the byte offset (reported as line and column).
package struct ReadFailure: Error {
    package var message: String
    package var path: [PathComponent]
    package var offset: Int?
    /// The 1-based line and column of ``offset`` (set by ``JSONReader/withUTF8(_:trailing:_:)``).
    package var location: (line: Int, column: Int)?
    /// What kind of failure this is.
    package var kind = Kind.invalid

    /// Kinds of failure that readers report in words of their own.
    package enum Kind {
        /// Anything else: a syntax error (``offset`` is set) or a value a schema does not accept.
        case invalid
        /// An object names a member twice (``path`` leads to the second one).
        case duplicate
        /// The text has no byte at all.
        case empty
        /// The text looks like UTF-16 or UTF-32 but is not valid.
        case encoding
    }

    /// Whether an object names a member twice.
    package var isDuplicate: Bool { kind == .duplicate }

    package init(message: String, path: [PathComponent] = [], offset: Int? = nil) {
        self.message = message
        self.path = path
        self.offset = offset
    }

    /// The same failure one level further out.
    package func inside(_ component: PathComponent) -> ReadFailure {
        var copy = self
        copy.path.append(component)
        return copy
    }

    /// The message, after the line and column when known: `line 2, column 17: unterminated string`.
    package var detail: String {
        location.map { "line \($0.line), column \($0.column): \(message)" } ?? message
    }

    /// The path, outermost first, as the package's other JSON paths are written.
    package var components: [JSONPathComponent] {
        path.reversed().map { component in
            switch component {
            case .field(let name): .member(name)
            case .index(let index): .index(index)
            }
        }
    }

    /// `$.groups[0].flags[2].default`.
    package var jsonPath: String {
        path.reversed().reduce(into: "$") { text, component in
            switch component {
            case .index(let index): text += "[\(index)]"
            case .field(let name): text += Self.isIdentifier(name) ? ".\(name)" : "[\(JSONText.quoted(name))]"
            }
        }
    }

    /// Field names that need no brackets in a path: ASCII letters, digits, `_` and `$`, not starting with a digit.
    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { value in
            (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
                || value == UInt8(ascii: "_") || value == UInt8(ascii: "$")
        }
    }
}

/// One step of a JSON path.
package enum PathComponent {
    case field(String)
    case index(Int)
}

/// A JSON string as read: the bytes between the quotes when it had no escapes (already checked to be valid
/// UTF-8), or the decoded text.
package enum StringToken {
    case raw(UnsafeBufferPointer<UInt8>)
    case decoded(String)

    package var string: String {
        switch self {
        case .raw(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .decoded(let text): return text
        }
    }
}

/// The known fields of one object type, matched against field names without making strings: each name is
/// kept as its length and up to 24 bytes packed in three words.
package struct FieldTable<Key: CaseIterable & RawRepresentable & Sendable>: Sendable where Key.RawValue == String {
    struct Entry: Sendable {
        let length: Int
        let words: (UInt64, UInt64, UInt64)
    }

    let keys: [Key]
    private let entries: [Entry]
    /// `key, label, description` for "expected one of" messages.
    let list: String

    /// The table of every case of `type`, each matched by its raw value.
    package init(_ type: Key.Type) {
        keys = Array(Key.allCases)
        precondition(keys.count <= 64, "ObjectState tracks at most 64 fields")
        entries = keys.map { key in
            var name = key.rawValue
            return name.withUTF8 { bytes in
                precondition(bytes.count <= 24, "field names have at most 24 bytes")
                return Entry(length: bytes.count, words: Self.pack(bytes))
            }
        }
        list = keys.map(\.rawValue).joined(separator: ", ")
    }

    /// The field named `name`; `readable` is how many bytes from the start of a raw name may be read (a name
    /// followed by at least 24 readable bytes is loaded a word at a time).
    @inline(__always) func index(of name: StringToken, readable: Int) -> Int? {
        switch name {
        case .raw(let bytes):
            guard bytes.count <= 24, let start = bytes.baseAddress else { return nil }
            guard readable >= 24 else { return index(of: Self.pack(bytes), length: bytes.count) }
            let length = bytes.count
            func word(_ number: Int) -> UInt64 {
                let used = min(max(length - 8 * number, 0), 8)
                guard used > 0 else { return 0 }
                let value = UInt64(littleEndian: UnsafeRawPointer(start + 8 * number).loadUnaligned(as: UInt64.self))
                return used == 8 ? value : value & ((UInt64(1) << UInt64(8 * used)) &- 1)
            }
            return index(of: (word(0), word(1), word(2)), length: length)
        case .decoded(let text):
            var copy = text
            return copy.withUTF8 { bytes in bytes.count <= 24 ? index(of: Self.pack(bytes), length: bytes.count) : nil }
        }
    }

    private func index(of words: (UInt64, UInt64, UInt64), length: Int) -> Int? {
        for candidate in 0..<entries.count {
            let entry = entries[candidate]
            if entry.length == length && entry.words.0 == words.0 && entry.words.1 == words.1
                && entry.words.2 == words.2
            {
                return candidate
            }
        }
        return nil
    }

    /// Up to 24 bytes in three words, byte `i` at bits `8 × (i % 8)` of word `i / 8` (zero-padded).
    private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64) {
        var words: [UInt64] = [0, 0, 0]
        for index in 0..<min(bytes.count, 24) {
            words[index / 8] |= UInt64(bytes[index]) << UInt64(8 * (index % 8))
        }
        return (words[0], words[1], words[2])
    }
}
