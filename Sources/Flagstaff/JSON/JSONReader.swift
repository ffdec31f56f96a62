import Foundation

/// The one JSON reader of the package: strict, single pass, over UTF-8 bytes.
///
/// Manifests, store files, profiles, journals, bisect state and request bodies are all read with it, each
/// schema as an extension reading straight into its model types (no intermediate tree unless a schema asks for
/// one with ``readJSONValue()``, no Foundation JSON). It follows RFC 8259 exactly: no trailing commas, comments,
/// `NaN` or unescaped control characters; invalid UTF-8 and lone surrogates are errors; nesting is limited to
/// ``maximumDepth`` levels; a member repeated in an object is an error. Callers detect the text encoding first
/// (``JSONTextEncoding``: a UTF-8 byte-order mark is skipped, UTF-16 and UTF-32 are transcoded).
///
/// Failures are `ReadFailure`s with the JSON path collected while unwinding, so the happy path keeps no
/// path at all; ``withText(_:_:)`` adds line and column. It is fuzzed (docs/fuzzing.md).
package struct JSONReader {
    /// The deepest nesting of arrays and objects accepted (as `JSONDecoder`).
    static let maximumDepth = 512

    /// The text; never empty (`read(_:)` rejects empty input first).
    package let base: UnsafePointer<UInt8>
    package let count: Int
    /// The next byte to read.
    package var offset = 0
    /// How many arrays and objects are open.
    var depth = 0

    init(base: UnsafePointer<UInt8>, count: Int) {
        self.base = base
        self.count = count
    }

    /// The byte at `offset`, or 0 at the end (a real 0 byte is never valid where a token is expected).
    @inline(__always) package var byte: UInt8 { offset < count ? base[offset] : 0 }

    @inline(__always) var atEnd: Bool { offset >= count }

    @inline(__always) mutating func skipWhitespace() {
        while offset < count {
            switch base[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    // MARK: Objects and arrays

    /// Where a caller is inside an object: whether a field was read, and which known fields were seen.
    package struct ObjectState {
        var first = true
        var seen: UInt64 = 0

        /// Before the first member.
        package init() {}
    }

    /// Consumes `[` or `{` (the caller checked which), counting the depth.
    @inline(__always) package mutating func open() throws(ReadFailure) {
        if depth >= Self.maximumDepth {
            throw syntaxError("nesting deeper than \(Self.maximumDepth) levels of arrays and objects")
        }
        depth += 1
        offset += 1
    }

    /// Moves to the next field of an object and returns its name, or `nil` after the closing `}`.
    /// Leaves `offset` at the field's value.
    package mutating func nextFieldName(_ state: inout ObjectState) throws(ReadFailure) -> StringToken? {
        skipWhitespace()
        if state.first {
            state.first = false
            if byte == UInt8(ascii: "}") {
                close()
                return nil
            }
        } else {
            switch byte {
            case UInt8(ascii: ","):
                offset += 1
                skipWhitespace()
                if byte == UInt8(ascii: "}") {
                    throw syntaxError("expected a field name after ',' (a trailing comma is not allowed)")
                }
            case UInt8(ascii: "}"):
                close()
                return nil
            default:
                throw syntaxError("expected ',' or '}' after a field, found \(foundHere)")
            }
        }
        guard byte == UInt8(ascii: "\"") else {
            throw syntaxError("expected a field name in double quotes, found \(foundHere)")
        }
        let name = try readStringToken()
        skipWhitespace()
        guard byte == UInt8(ascii: ":") else {
            throw syntaxError("expected ':' after a field name, found \(foundHere)")
        }
        offset += 1
        skipWhitespace()
        return name
    }

    /// Moves to the next known field; a repeated field and an unknown field are errors (the latter listing
    /// the known ones).
    package mutating func nextField<Key>(_ table: FieldTable<Key>, _ state: inout ObjectState) throws(ReadFailure)
        -> Key?
    {
        guard let (key, name) = try nextFieldAllowingUnknown(table, &state) else { return nil }
        guard let key else {
            let text = name.string
            throw ReadFailure(
                message: "unknown field \(JSONText.quoted(text)) (expected one of: \(table.list))",
                path: [.field(text)])
        }
        return key
    }

    /// Moves to the next field: its name, and its key in `table` (`nil` for a name the table does not know, which
    /// the caller reads or skips). A repeated known field is an error.
    @inline(__always)
    package mutating func nextFieldAllowingUnknown<Key>(_ table: FieldTable<Key>, _ state: inout ObjectState)
        throws(ReadFailure) -> (key: Key?, name: StringToken)?
    {
        guard let name = try nextFieldName(&state) else { return nil }
        guard let index = fieldIndex(name, in: table) else { return (nil, name) }
        let bit: UInt64 = 1 << UInt64(index)
        guard state.seen & bit == 0 else { throw Self.duplicateMember(name.string) }
        state.seen |= bit
        return (table.keys[index], name)
    }

    /// Skips the value of a member no table knows (a schema that follows newer writers ignores it), checking its
    /// syntax and that no other unknown member of the object had its name (`others`, empty for each object).
    package mutating func skipUnknownField(_ name: StringToken, others: inout [String]) throws(ReadFailure) {
        let text = name.string
        guard !others.contains(text) else { throw Self.duplicateMember(text) }
        others.append(text)
        do throws(ReadFailure) { try skipValue() } catch { throw error.inside(.field(text)) }
    }

    /// What ``readMembers(_:expected:unknown:_:)`` does with a member its table does not know.
    package enum UnknownMembers: Sendable {
        /// An error listing the known members (a schema this package alone writes).
        case reject
        /// Skipped, its syntax checked (a schema that follows newer writers).
        case skip
    }

    /// Reads an object member by member, the one object loop of the schemas: `member` reads the value of each
    /// member `table` knows, and a failure in it is reported inside that member's path. A repeated member is an
    /// error; what happens to an unknown one `unknown` says. Missing members are the caller's to check afterwards.
    /// Inlinable and inlined into each schema, in this module and the others (Unleash, Firebase, remote config), so
    /// a reader pays no generic call and no closure call per member (measured: `flagstaff-bench unleash`, `manifest`).
    /// - Parameters:
    ///   - table: the known members.
    ///   - expected: what the error says was expected when the value is not an object (`an object`).
    ///   - unknown: reject or skip members `table` does not know.
    ///   - member: reads one known member's value (the reader is at it).
    @inlinable @inline(__always)
    package mutating func readMembers<Key>(
        _ table: FieldTable<Key>, expected: String = "an object", unknown: UnknownMembers,
        _ member: (inout JSONReader, Key) throws(ReadFailure) -> Void
    ) throws(ReadFailure) {
        guard byte == UInt8(ascii: "{") else { throw try typeMismatch(expected: expected) }
        try open()
        var state = ObjectState()
        var others: [String] = []
        while true {
            let key: Key
            switch unknown {
            case .reject:
                guard let known = try nextField(table, &state) else { return }
                key = known
            case .skip:
                guard let (known, name) = try nextFieldAllowingUnknown(table, &state) else { return }
                guard let known else {
                    try skipUnknownField(name, others: &others)
                    continue
                }
                key = known
            }
            do throws(ReadFailure) {
                try member(&self, key)
            } catch {
                throw error.inside(.field(key.rawValue))
            }
        }
    }

    /// The position of `name` in `table`, or `nil` for a name the table does not know.
    @inline(__always) func fieldIndex<Key>(_ name: StringToken, in table: FieldTable<Key>) -> Int? {
        let readable =
            if case .raw(let bytes) = name, let start = bytes.baseAddress { count - (start - base) } else { 0 }
        return table.index(of: name, readable: readable)
    }

    /// Moves to the next element of an array: `false` after the closing `]`. Leaves `offset` at the element.
    @inline(__always) package mutating func nextElement(_ first: inout Bool) throws(ReadFailure) -> Bool {
        skipWhitespace()
        if first {
            first = false
            if byte == UInt8(ascii: "]") {
                close()
                return false
            }
            return true
        }
        switch byte {
        case UInt8(ascii: ","):
            offset += 1
            skipWhitespace()
            if byte == UInt8(ascii: "]") {
                throw syntaxError("expected a value after ',' (a trailing comma is not allowed)")
            }
            return true
        case UInt8(ascii: "]"):
            close()
            return false
        default:
            throw syntaxError("expected ',' or ']' after an element, found \(foundHere)")
        }
    }

    /// Consumes a closing bracket.
    @inline(__always) private mutating func close() {
        offset += 1
        depth -= 1
    }

    /// Reads the elements of an array with `element`, naming the index of a failing one.
    @inline(__always)
    package mutating func readArray<Element>(_ element: (inout JSONReader) throws(ReadFailure) -> Element)
        throws(ReadFailure) -> [Element]
    {
        try open()
        var elements: [Element] = []
        var first = true
        while try nextElement(&first) {
            do throws(ReadFailure) {
                elements.append(try element(&self))
            } catch {
                throw error.inside(.index(elements.count))
            }
        }
        return elements
    }

    // MARK: Errors

    /// A member named twice in one object, reported at the second one's path.
    package static func duplicateMember(_ name: String) -> ReadFailure {
        var failure = ReadFailure(
            message: "duplicate member \(JSONText.quoted(name)) (an object may name each member once)",
            path: [.field(name)])
        failure.kind = .duplicate
        return failure
    }

    /// A syntax error at `offset` (or `at`), reported with its line and column.
    package func syntaxError(_ message: String, at position: Int? = nil) -> ReadFailure {
        ReadFailure(message: message, path: [], offset: position ?? offset)
    }

    /// Describes what is at `offset` for an error: `'x'`, `byte 0xFF`, `the end of the file`.
    package var foundHere: String { describe(at: offset) }

    /// Describes the byte at `position` for an error.
    func describe(at position: Int) -> String {
        guard position >= 0, position < count else { return "the end of the file" }
        let value = base[position]
        if value >= 0x21 && value < 0x7F { return "'\(Character(Unicode.Scalar(value)))'" }
        return "byte 0x" + String(value, radix: 16, uppercase: true)
    }

    /// The 1-based line and column (in characters: Unicode scalars) of a byte offset.
    func lineAndColumn(of position: Int) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var index = 0
        let end = min(position, count)
        while index < end {
            let value = base[index]
            if value == 0x0A {
                line += 1
                column = 1
            } else if value & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return (line, column)
    }
}

// MARK: Reading a whole text

extension JSONReader {
    /// Reads JSON text with `body`, which reads the one top-level value; only white space may follow it.
    ///
    /// The encoding is detected first (``JSONTextEncoding``): a UTF-8 byte-order mark is skipped, UTF-16 and UTF-32
    /// are transcoded. Syntax errors get their line and column (``ReadFailure/location``).
    /// - Parameters:
    ///   - data: the text.
    ///   - trailing: what follows "unexpected 'x'" when something other than white space follows the value.
    ///   - body: reads the value (white space before it is skipped).
    /// - Throws: ``ReadFailure`` (of kind `empty` when the text has no byte at all, `encoding` when it is not
    ///   valid UTF-16 or UTF-32).
    package static func withText<T>(
        _ data: Data, trailing: String = "after the JSON value (only white space may follow it)",
        _ body: (inout JSONReader) throws(ReadFailure) -> T
    ) throws(ReadFailure) -> T {
        let encoding = JSONTextEncoding.detect(data)
        let outcome: Result<T, ReadFailure>
        switch encoding {
        case .utf8(let skip):
            return try withUTF8(data, skipping: skip, trailing: trailing, body)
        case .wide(let unitSize, let bigEndian, let skip):
            guard
                let utf8 = JSONTextEncoding.transcode(
                    [UInt8](data), unitSize: unitSize, bigEndian: bigEndian, skip: skip)
            else {
                var failure = ReadFailure(
                    message: "the text looks like \(encoding.name) but is not valid \(encoding.name)")
                failure.kind = .encoding
                throw failure
            }
            outcome = utf8.withUnsafeBufferPointer { bytes in
                result { () throws(ReadFailure) in try withUTF8(bytes, trailing: trailing, body) }
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let failure): throw failure
        }
    }

    /// Reads UTF-8 text after its first `skip` bytes with `body`, as ``withText(_:trailing:_:)`` does.
    static func withUTF8<T>(
        _ data: Data, skipping skip: Int = 0,
        trailing: String = "after the JSON value (only white space may follow it)",
        _ body: (inout JSONReader) throws(ReadFailure) -> T
    ) throws(ReadFailure) -> T {
        let outcome: Result<T, ReadFailure> = data.withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            return result { () throws(ReadFailure) in
                try withUTF8(UnsafeBufferPointer(rebasing: bytes[min(skip, bytes.count)...]), trailing: trailing, body)
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let failure): throw failure
        }
    }

    /// Reads UTF-8 text (no byte-order mark) with `body`, as ``withText(_:trailing:_:)`` does.
    static func withUTF8<T>(
        _ bytes: UnsafeBufferPointer<UInt8>, trailing: String = "after the JSON value (only white space may follow it)",
        _ body: (inout JSONReader) throws(ReadFailure) -> T
    ) throws(ReadFailure) -> T {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            var failure = ReadFailure(message: "the text is empty (expected a JSON value)", offset: 0)
            failure.kind = .empty
            failure.location = (1, 1)
            throw failure
        }
        var reader = JSONReader(base: base, count: bytes.count)
        do throws(ReadFailure) {
            reader.skipWhitespace()
            let value = try body(&reader)
            reader.skipWhitespace()
            guard reader.atEnd else { throw reader.syntaxError("unexpected \(reader.foundHere) \(trailing)") }
            return value
        } catch {
            var failure = error
            if let offset = failure.offset { failure.location = reader.lineAndColumn(of: offset) }
            throw failure
        }
    }

    /// `body`'s value or failure (closures passed to Foundation's `withUnsafeBytes` cannot throw a typed error).
    private static func result<T>(_ body: () throws(ReadFailure) -> T) -> Result<T, ReadFailure> {
        do throws(ReadFailure) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }
}
