/// Scalars (strings, booleans, numbers, null), any value as a tree, type checks and skipping values.
extension JSONReader {
    /// A required string; `null` is an error.
    package mutating func readString() throws(ReadFailure) -> String {
        guard byte == UInt8(ascii: "\"") else { throw try typeMismatch(expected: "a string") }
        return try readStringToken().string
    }

    /// An optional string: `null` is `nil`.
    package mutating func readOptionalString() throws(ReadFailure) -> String? {
        if try readNull() { return nil }
        return try readString()
    }

    /// An optional boolean: `null` is `nil`.
    package mutating func readOptionalBool() throws(ReadFailure) -> Bool? {
        switch byte {
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return false
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return nil
        default:
            throw try typeMismatch(expected: "a boolean (true or false)")
        }
    }

    /// Consumes `null` if it is next.
    @inline(__always) package mutating func readNull() throws(ReadFailure) -> Bool {
        guard byte == UInt8(ascii: "n") else { return false }
        try readLiteral("null")
        return true
    }

    /// Consumes `true`, `false` or `null`.
    package mutating func readLiteral(_ literal: StaticString) throws(ReadFailure) {
        let length = literal.utf8CodeUnitCount
        let expected = literal.utf8Start
        var index = 0
        while index < length && offset + index < count && base[offset + index] == expected[index] { index += 1 }
        guard index == length else {
            throw syntaxError(
                "expected a value (such as \(literal)), found \(describe(at: offset + index))", at: offset + index)
        }
        offset += length
    }

    /// A number per the JSON grammar, as the nearest `Double`. Like `JSONDecoder`, numbers beyond a
    /// `Double`'s range (or so small that they would become 0) are errors.
    package mutating func readNumber() throws(ReadFailure) -> Double {
        try readNumberText().value
    }

    /// A number as ``readNumber()`` reads it, with its text and whether it is written as a whole number (no
    /// fraction, no exponent).
    package mutating func readNumberText() throws(ReadFailure) -> (text: String, value: Double, isWhole: Bool) {
        let start = offset
        var index = offset
        var nonzero = false
        func digit(_ position: Int) -> Bool {
            position < count && base[position] >= UInt8(ascii: "0") && base[position] <= UInt8(ascii: "9")
        }
        func digits(from position: Int, what: String) throws(ReadFailure) -> Int {
            guard digit(position) else {
                throw syntaxError(
                    "invalid number: expected a digit \(what), found \(describe(at: position))", at: position)
            }
            var end = position
            while digit(end) {
                if base[end] != UInt8(ascii: "0") { nonzero = true }
                end += 1
            }
            return end
        }
        if byte == UInt8(ascii: "-") { index += 1 }
        if index < count && base[index] == UInt8(ascii: "0") {
            index += 1
            if digit(index) { throw syntaxError("invalid number: leading zeros are not allowed", at: start) }
        } else {
            index = try digits(from: index, what: "after '-'")
        }
        var isWhole = true
        if index < count && base[index] == UInt8(ascii: ".") {
            isWhole = false
            index = try digits(from: index + 1, what: "after '.'")
        }
        let mantissaHasDigits = nonzero
        if index < count && (base[index] == UInt8(ascii: "e") || base[index] == UInt8(ascii: "E")) {
            isWhole = false
            index += 1
            if index < count && (base[index] == UInt8(ascii: "+") || base[index] == UInt8(ascii: "-")) { index += 1 }
            index = try digits(from: index, what: "in the exponent")
        }
        offset = index
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
        guard let value = Double(text), value.isFinite else {
            throw ReadFailure(message: "expected a number within the range of a Double, found \(shown)")
        }
        if value == 0 && mantissaHasDigits {
            throw ReadFailure(
                message: "expected a number within the range of a Double, found \(shown) (too small: it would become 0)"
            )
        }
        return (text, value, isWhole)
    }

    /// An error for a value of the wrong type at `offset`: "expected a string, found a number". The value is
    /// read first, so a syntax error in it is reported as such.
    package mutating func typeMismatch(expected: String) throws(ReadFailure) -> ReadFailure {
        let found: String
        switch byte {
        case UInt8(ascii: "\""): found = "a string"
        case UInt8(ascii: "{"): found = "an object"
        case UInt8(ascii: "["): found = "an array"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): found = "a boolean"
        case UInt8(ascii: "n"): found = "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): found = "a number"
        default: throw syntaxError("expected a value, found \(foundHere)")
        }
        try skipValue()
        return ReadFailure(message: "expected \(expected), found \(found)")
    }

    /// Reads any value without keeping it, checking its syntax (a member repeated in an object included).
    package mutating func skipValue() throws(ReadFailure) {
        switch byte {
        case UInt8(ascii: "\""):
            _ = try readStringToken()
        case UInt8(ascii: "{"):
            try open()
            var state = ObjectState()
            var names: Set<String> = []
            while let name = try nextFieldName(&state) {
                let text = name.string
                guard names.insert(text).inserted else { throw Self.duplicateMember(text) }
                do throws(ReadFailure) { try skipValue() } catch { throw error.inside(.field(text)) }
            }
        case UInt8(ascii: "["):
            try open()
            var first = true
            var index = 0
            while try nextElement(&first) {
                // A repeated member is reported at its path; a syntax error at its line and column.
                do throws(ReadFailure) { try skipValue() } catch {
                    throw error.offset == nil ? error.inside(.index(index)) : error
                }
                index += 1
            }
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        case UInt8(ascii: "n"): try readLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try readNumber()
        default: throw syntaxError("expected a value, found \(foundHere)")
        }
    }

    /// Any JSON value (nesting bounded by ``maximumDepth``); a member repeated in an object is an error.
    package mutating func readJSONValue() throws(ReadFailure) -> JSONSettingValue {
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try readStringToken().string)
        case UInt8(ascii: "{"):
            try open()
            var members: [String: JSONSettingValue] = [:]
            var state = ObjectState()
            while let name = try nextFieldName(&state) {
                let text = name.string
                guard members[text] == nil else { throw Self.duplicateMember(text) }
                do throws(ReadFailure) {
                    members[text] = try readJSONValue()
                } catch {
                    throw error.inside(.field(text))
                }
            }
            return .object(members)
        case UInt8(ascii: "["):
            return .array(try readArray { reader throws(ReadFailure) in try reader.readJSONValue() })
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try readNumber())
        default:
            throw syntaxError("expected a value, found \(foundHere)")
        }
    }
}
