import Foundation

/// Any JSON value, without loss of type (`true` is not `1`), for strict validation with precise messages
/// (the override file parser).
///
/// ``read(_:)`` reads the text with `JSONSerialization` (about half the time of `JSONDecoder` on 100,000
/// entries); a reader walks the result and converts only the values it compares or reports
/// (``init(_:)``), so a large valid file costs no copy.
package enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Why bytes are not JSON, or not JSON a reader accepts.
    package struct SyntaxError: Error, Sendable {
        /// Where the reader stopped, as it says it (`Invalid value around character 9.`), if it says.
        package var detail: String?
        /// When an object repeats a member name: the path to the repeated member (the last component is the
        /// name).
        package var duplicate: [JSONPathComponent]?

        /// Creates an error.
        package init(detail: String?, duplicate: [JSONPathComponent]? = nil) {
            self.detail = detail
            self.duplicate = duplicate
        }
    }

    /// Reads a JSON text (any value at the top level); an object that repeats a member name is an error.
    /// - Parameter data: UTF-8 JSON text.
    /// - Returns: what `JSONSerialization` returns: `String`, `NSNumber` (booleans too), `NSNull`,
    ///   `[Any]` or `[String: Any]`; convert a value with ``init(_:)``.
    /// - Throws: ``SyntaxError`` when the text is not JSON or repeats a member name.
    package static func read(_ data: Data) throws(SyntaxError) -> Any {
        try readDocument(data).value
    }

    /// Converts a value ``read(_:)`` returned.
    /// - Parameter object: a value from `JSONSerialization`.
    package init(_ object: Any) {
        switch object {
        case let text as String:
            self = .string(text)
        case let number as NSNumber:
            // Booleans are NSNumbers whose type is `char` ("c"); JSON numbers never are.
            self =
                String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(JSONNumber.double(number))
        case let dictionary as [String: Any]:
            self = .object(dictionary.mapValues(JSONValue.init))
        case let array as [Any]:
            self = .array(array.map(JSONValue.init))
        default:
            self = .null
        }
    }

    /// How the value reads in a message: `null`, `true`, `3`, `"maybe"`, `an array`, `an object`. Strings are
    /// quoted with control characters and bidirectional marks escaped, so the message is safe to print.
    package var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value):
            return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
        case .string(let value): return JSONText.quoted(value, alsoEscaping: TextSanitizer.isUnsafe)
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

/// A place in a JSON text: a member name or an array index.
package enum JSONPathComponent: Sendable, Equatable {
    case member(String)
    case index(Int)
}

extension JSONValue {
    /// A JSON text read with ``readDocument(_:)``: the value and, when it is an object, where each of its members'
    /// values is in the text (in the text's order), so a writer can keep members it does not know as they were.
    package struct Document {
        /// What `JSONSerialization` returned; convert a value with ``init(_:)``.
        package var value: Any
        /// The top-level object's members, each with the byte range of its value in ``text`` (empty when the
        /// value is not an object).
        package var members: [(name: String, value: Range<Int>)]
        /// The text read, as UTF-8 without a byte-order mark (see ``JSONTextEncoding``).
        package var text: Data

        /// The JSON text of a range of ``text`` (a member's value).
        package func json(_ range: Range<Int>) -> String {
            text.withUnsafeBytes { bytes in
                let clamped = range.clamped(to: 0..<bytes.count)
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[clamped]), as: UTF8.self)
            }
        }
    }

    /// Reads a JSON text, refusing an object that repeats a member name (JSON parsers disagree on which one
    /// wins, so a repeated name is a mistake to report, not to resolve).
    /// A leading UTF-8 byte-order mark is skipped (RFC 8259 lets a reader ignore it), and UTF-16 or UTF-32 text is
    /// read as `JSONSerialization` reads it (see ``JSONTextEncoding``).
    /// - Parameter data: JSON text.
    /// - Returns: the value and the top-level members' places.
    /// - Throws: ``SyntaxError`` when the text is not JSON or repeats a name (``SyntaxError/duplicate``).
    package static func readDocument(_ data: Data) throws(SyntaxError) -> Document {
        guard let text = JSONTextEncoding.utf8Text(data) else {
            let name = JSONTextEncoding.detect(data).name
            throw SyntaxError(detail: "the text looks like \(name) but is not valid \(name)")
        }
        // `JSONSerialization` would skip a second mark too; one is all a text may start with.
        if text.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw SyntaxError(detail: "a byte-order mark where the JSON value should start")
        }
        let value: Any
        do {
            value = try JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed])
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw SyntaxError(detail: detail.flatMap { $0.isEmpty ? nil : $0 })
        }
        // First only count each object's names and compare with what the parser kept: equal everywhere means
        // no name repeats (the usual case, with no hashing); otherwise find the repeated name.
        let counted = text.withUnsafeBytes { MemberScanner(bytes: $0, parsed: value).scan() }
        guard counted.duplicate != nil else { return Document(value: value, members: counted.members, text: text) }
        let scan = text.withUnsafeBytes { MemberScanner(bytes: $0, parsed: nil).scan() }
        if let duplicate = scan.duplicate {
            throw SyntaxError(detail: nil, duplicate: duplicate)
        }
        return Document(value: value, members: scan.members, text: text)
    }
}

/// Walks a JSON text that `JSONSerialization` accepted, checking that no object repeats a member name and noting
/// where the top-level object's member values are. One pass, no recursion (any depth), names decoded only to be
/// compared.
///
/// With `parsed` (what the parser made of the same text) it only counts each object's names and compares the
/// count with the parsed object's: a difference is reported as a duplicate with an empty path, and the caller
/// scans again without `parsed`, comparing the names themselves, to find it.
private struct MemberScanner {
    let bytes: UnsafeRawBufferPointer
    let parsed: Any?

    /// A name as bytes in the text (ASCII names without escapes: the common case, compared without making
    /// strings), or as bytes owned by the scan (names whose canonical form is ASCII).
    private struct ByteName: Hashable {
        let bytes: UnsafeRawBufferPointer

        static func == (lhs: ByteName, rhs: ByteName) -> Bool {
            guard lhs.bytes.count == rhs.bytes.count else { return false }
            guard let left = lhs.bytes.baseAddress, let right = rhs.bytes.baseAddress else { return true }
            return Platform.compareBytes(left, right, count: lhs.bytes.count) == 0
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes: bytes)
        }
    }

    /// Where a container is in its parent, the name still as bytes.
    private enum Place {
        case member(Range<Int>, escaped: Bool)
        case index(Int)
    }

    private struct Frame {
        var isObject: Bool
        var asciiNames: Set<ByteName> = []
        var otherNames: Set<String> = []  // compared as Swift compares strings (canonical equivalence)
        var nameCount = 0  // names seen (counting mode)
        var name: (range: Range<Int>, escaped: Bool)?  // the member being read (objects)
        var index = 0  // the element being read (arrays)
        var place: Place?  // where this container is in its parent
    }

    func scan() -> (members: [(name: String, value: Range<Int>)], duplicate: [JSONPathComponent]?) {
        var stack: [Frame] = []
        var members: [(name: String, value: Range<Int>)] = []
        var owned: [UnsafeMutableRawBufferPointer] = []
        defer { owned.forEach { $0.deallocate() } }
        var expectingName = false
        var valueStart: Int?
        var position = 0
        let count = bytes.count

        func component(_ place: Place) -> JSONPathComponent {
            switch place {
            case .member(let range, let escaped): return .member(decodeString(range, hasEscape: escaped))
            case .index(let index): return .index(index)
            }
        }
        func place(in frame: Frame) -> Place {
            frame.isObject
                ? .member(frame.name?.range ?? 0..<0, escaped: frame.name?.escaped ?? false) : .index(frame.index)
        }
        /// A value that began at `start` ended before `end`: note it if it is a top-level member's value.
        func ended(_ end: Int) {
            if stack.count == 1, stack[0].isObject, let start = valueStart, let name = stack[0].name {
                members.append((decodeString(name.range, hasEscape: name.escaped), start..<end))
                valueStart = nil
            }
        }
        /// Notes a name in the innermost object; `false` if the object already has it.
        func insert(_ range: Range<Int>, escaped: Bool) -> Bool {
            let last = stack.count - 1
            if parsed != nil {
                stack[last].nameCount += 1
                return true
            }
            let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
            if !escaped, raw.allSatisfy({ $0 < 0x80 }) {
                return stack[last].asciiNames.insert(ByteName(bytes: raw)).inserted
            }
            let name = decodeString(range, hasEscape: escaped)
            // A name such as "\u212A" (Kelvin sign) is canonically "K": compare it with the ASCII names.
            let canonical = name.precomposedStringWithCanonicalMapping
            guard canonical.utf8.allSatisfy({ $0 < 0x80 }) else {
                return stack[last].otherNames.insert(name).inserted
            }
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: canonical.utf8.count, alignment: 1)
            owned.append(copy)
            _ = copy.initializeMemory(as: UInt8.self, from: canonical.utf8)
            return stack[last].asciiNames.insert(ByteName(bytes: UnsafeRawBufferPointer(copy))).inserted
        }

        while position < count {
            let byte = bytes[position]
            switch byte {
            case 0x20, 0x0A, 0x0D, 0x09:
                position += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                if stack.count == 1, valueStart == nil, stack[0].isObject { valueStart = position }
                var frame = Frame(isObject: byte == UInt8(ascii: "{"))
                frame.place = stack.last.map(place(in:))
                stack.append(frame)
                expectingName = frame.isObject
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                // The parser accepted the text, so brackets balance; a closing one without an opening one
                // would end the scan rather than trap.
                guard let frame = stack.popLast() else { return (members, nil) }
                if let parsed, frame.isObject, !matches(frame, parsed: parsed, parents: stack) {
                    return (members, [])
                }
                position += 1
                ended(position)
                expectingName = false
            case UInt8(ascii: ","):
                if let last = stack.indices.last {
                    if stack[last].isObject { expectingName = true } else { stack[last].index += 1 }
                }
                position += 1
            case UInt8(ascii: ":"):
                if stack.count == 1 { valueStart = nil }
                position += 1
            case UInt8(ascii: "\""):
                let start = position
                let (end, hasEscape) = stringEnd(from: position)
                position = end
                if expectingName, let last = stack.indices.last {
                    expectingName = false
                    let range = start + 1..<max(start + 1, end - 1)
                    if !insert(range, escaped: hasEscape) {
                        let path = stack.compactMap { $0.place.map(component) }
                        return (members, path + [.member(decodeString(range, hasEscape: hasEscape))])
                    }
                    stack[last].name = (range, hasEscape)
                    if stack.count == 1 { valueStart = nil }
                } else {
                    if stack.count == 1, valueStart == nil { valueStart = start }
                    ended(end)
                }
            default:  // a number, true, false or null
                let start = position
                while position < count, !isDelimiter(bytes[position]) { position += 1 }
                if stack.count == 1, valueStart == nil { valueStart = start }
                ended(position)
            }
        }
        return (members, nil)
    }

    /// Whether the parsed object at the frame's place has as many members as the text names.
    private func matches(_ frame: Frame, parsed root: Any, parents: [Frame]) -> Bool {
        var value: Any? = root
        for place in (parents + [frame]).compactMap(\.place) {
            switch place {
            case .member(let range, let escaped):
                value = (value as? [String: Any])?[decodeString(range, hasEscape: escaped)]
            case .index(let index):
                value = (value as? [Any]).flatMap { index < $0.count ? $0[index] : nil }
            }
        }
        return (value as? [String: Any])?.count == frame.nameCount
    }

    private func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    /// The position after the closing quote of the string whose opening quote is at `start`.
    private func stringEnd(from start: Int) -> (end: Int, hasEscape: Bool) {
        var position = start + 1
        var hasEscape = false
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\\"):
                hasEscape = true
                position = min(position + 2, bytes.count)
            case UInt8(ascii: "\""):
                return (position + 1, hasEscape)
            default:
                position += 1
            }
        }
        return (bytes.count, hasEscape)
    }

    /// The string between the quotes, escapes decoded.
    private func decodeString(_ range: Range<Int>, hasEscape: Bool) -> String {
        let replacement: Unicode.Scalar = "\u{FFFD}"
        let slice = UnsafeRawBufferPointer(rebasing: bytes[range.clamped(to: 0..<bytes.count)])
        guard hasEscape else { return String(decoding: slice, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        func flush() {
            if !utf8.isEmpty {
                scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
                utf8.removeAll(keepingCapacity: true)
            }
        }
        var position = 0
        var pendingHigh: UInt32?
        while position < slice.count {
            let byte = slice[position]
            guard byte == UInt8(ascii: "\\"), position + 1 < slice.count else {
                if pendingHigh != nil {
                    pendingHigh = nil
                    scalars.append(replacement)
                }
                utf8.append(byte)
                position += 1
                continue
            }
            flush()
            let escaped = slice[position + 1]
            position += 2
            var scalar: UInt32
            switch escaped {
            case UInt8(ascii: "u"):
                let end = min(position + 4, slice.count)
                let hex = String(decoding: UnsafeRawBufferPointer(rebasing: slice[position..<end]), as: UTF8.self)
                scalar = UInt32(hex, radix: 16) ?? 0xFFFD
                position = end
            default: scalar = UInt32(JSONText.unescaped(escaped) ?? escaped)
            }
            if let high = pendingHigh {
                pendingHigh = nil
                if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00)
                } else {
                    scalars.append(replacement)
                }
            }
            if (0xD800...0xDBFF).contains(scalar) {
                pendingHigh = scalar
                continue
            }
            scalars.append(Unicode.Scalar(scalar) ?? replacement)
        }
        flush()
        if pendingHigh != nil { scalars.append(replacement) }
        return String(scalars)
    }
}
