import Foundation

/// Values read as Foundation objects (`String`, `NSNumber`, `NSNull`, `[Any]`, `[String: Any]`), the shapes
/// `JSONSerialization` returns, for the few places that hand a value to Foundation-typed code (the console's
/// editor, `RemoteConfigValue.jsonValue`, output written with `JSONSerialization`). The text follows the reader's
/// rules: a repeated member, a lone surrogate or nesting beyond ``JSONReader/maximumDepth`` is an error.
extension JSONReader {
    /// Any value as Foundation objects. Whole numbers within 64 bits are integer `NSNumber`s, larger whole numbers
    /// `NSDecimalNumber`s with every digit (up to 38), other numbers `Double` `NSNumber`s; `true`/`false` Boolean
    /// `NSNumber`s.
    package mutating func readFoundationValue() throws(ReadFailure) -> Any {
        switch byte {
        case UInt8(ascii: "\""):
            return try readStringToken().string
        case UInt8(ascii: "{"):
            try open()
            var members: [String: Any] = [:]
            var state = ObjectState()
            while let name = try nextFieldName(&state) {
                let text = name.string
                guard members[text] == nil else { throw Self.duplicateMember(text) }
                do throws(ReadFailure) {
                    members[text] = try readFoundationValue()
                } catch {
                    throw error.inside(.field(text))
                }
            }
            return members
        case UInt8(ascii: "["):
            return try readArray { reader throws(ReadFailure) -> Any in try reader.readFoundationValue() }
        case UInt8(ascii: "t"):
            try readLiteral("true")
            return NSNumber(value: true)
        case UInt8(ascii: "f"):
            try readLiteral("false")
            return NSNumber(value: false)
        case UInt8(ascii: "n"):
            try readLiteral("null")
            return NSNull()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let number = try readNumberText()
            if number.isWhole {
                if let integer = Int64(number.text) { return NSNumber(value: integer) }
                if let integer = UInt64(number.text) { return NSNumber(value: integer) }
                // Up to 38 digits a decimal number holds them all; beyond, the nearest `Double`.
                let decimal = NSDecimalNumber(string: number.text)
                if decimal.description == number.text { return decimal }
            }
            return NSNumber(value: number.value)
        default:
            throw syntaxError("expected a value, found \(foundHere)")
        }
    }
}

extension JSONSettingValue {
    /// Reads a JSON text as Foundation objects with ``JSONReader`` (see ``JSONReader/readFoundationValue()``).
    /// - Parameter data: JSON text (any value at the top level; the encoding is detected first).
    /// - Returns: the value.
    /// - Throws: ``SyntaxError`` when the text is not JSON or repeats a member name.
    package static func readFoundation(_ data: Data) throws(SyntaxError) -> Any {
        do throws(ReadFailure) {
            return try JSONReader.withText(data) { reader throws(ReadFailure) in try reader.readFoundationValue() }
        } catch {
            throw SyntaxError(error)
        }
    }
}
