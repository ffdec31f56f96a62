/// Values read straight into ``OverrideValue``'s canonical text (members sorted by name, whole numbers without a
/// fraction), with no tree in between: the entries of store files, profiles, journals and bisect state.
extension JSONReader {
    /// The value at `offset` as an override value. `"on"`, `"off"` and plain strings are taken from the text as
    /// they are; other values are written canonically.
    package mutating func readOverrideValue() throws(ReadFailure) -> OverrideValue {
        guard byte == UInt8(ascii: "\"") else {
            var text = ""
            try appendCanonical(to: &text)
            return OverrideValue(canonical: text)
        }
        let token = try readStringToken()
        if case .raw(let bytes) = token {
            if bytes.count == 2 && bytes[0] == UInt8(ascii: "o") && bytes[1] == UInt8(ascii: "n") { return .on }
            if bytes.count == 3 && bytes[0] == UInt8(ascii: "o") && bytes[1] == UInt8(ascii: "f")
                && bytes[2] == UInt8(ascii: "f")
            {
                return .off
            }
            // No quote, backslash or control character (the token has no escape): printable ASCII is canonical.
            if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                return OverrideValue(canonical: "\"" + String(decoding: bytes, as: UTF8.self) + "\"")
            }
        }
        return OverrideValue(string: token.string)
    }

    /// Appends the value at `offset` as canonical JSON.
    mutating func appendCanonical(to text: inout String) throws(ReadFailure) {
        switch byte {
        case UInt8(ascii: "\""):
            text += JSONText.quoted(try readStringToken().string)
        case UInt8(ascii: "{"):
            try open()
            var members: [(name: String, json: String)] = []
            var names: Set<String> = []
            var state = ObjectState()
            while let token = try nextFieldName(&state) {
                let name = token.string
                guard names.insert(name).inserted else { throw Self.duplicateMember(name) }
                var json = ""
                do throws(ReadFailure) { try appendCanonical(to: &json) } catch { throw error.inside(.field(name)) }
                members.append((name, json))
            }
            members.sort { $0.name < $1.name }
            text += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { text += "," }
                text += JSONText.quoted(member.name) + ":" + member.json
            }
            text += "}"
        case UInt8(ascii: "["):
            try open()
            text += "["
            var first = true
            var index = 0
            while try nextElement(&first) {
                if index > 0 { text += "," }
                do throws(ReadFailure) { try appendCanonical(to: &text) } catch { throw error.inside(.index(index)) }
                index += 1
            }
            text += "]"
        case UInt8(ascii: "t"):
            try readLiteral("true")
            text += "true"
        case UInt8(ascii: "f"):
            try readLiteral("false")
            text += "false"
        case UInt8(ascii: "n"):
            try readLiteral("null")
            text += "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try readNumberText()
            // A whole number keeps every digit as written (JSON's grammar gives it one spelling; a `Double` would
            // round it beyond 2⁵³), so that a value too large for its setting is reported as the file holds it.
            if number.isWhole {
                text += Int64(number.text).map { String($0) } ?? number.text  // `-0` is `0`
            } else {
                text += OverrideValue.numberText(number.value)
            }
        default:
            throw syntaxError("expected a value, found \(foundHere)")
        }
    }
}
