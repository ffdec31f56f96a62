/// JSON text written by hand: string literals for the store file, error messages naming JSON keys and the
/// command line's output, and escapes added to JSON another encoder wrote.
///
/// Escapes are written by ``UnicodeEscape/appendJSON(_:to:)`` (`\u001B`, uppercase hex).
package enum JSONText {
    /// The byte a one-character JSON escape stands for: `\"` `\\` `\/` `\b` `\f` `\n` `\r` `\t`; `nil` for any other
    /// character after the backslash (`u` included: `\uXXXX` is read by its reader).
    /// - Parameter escape: the byte after the backslash.
    /// - Returns: the byte it stands for, or `nil`.
    package static func unescaped(_ escape: UInt8) -> UInt8? {
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): escape
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        default: nil
        }
    }

    /// Appends `text` as a JSON string literal (as ``quoted(_:alsoEscaping:)`` writes it) to `bytes`: plain text
    /// is copied whole, without making a string.
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        // Native strings: their bytes checked and copied in place.
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C { return false }
            bytes.append(0x22)
            bytes.append(contentsOf: utf8)
            bytes.append(0x22)
            return true
        }
        if copied == true { return }
        let plain = text.utf8.allSatisfy { byte in byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C }
        guard plain else {
            bytes.append(contentsOf: quoted(text).utf8)
            return
        }
        bytes.append(0x22)
        bytes.append(contentsOf: text.utf8)
        bytes.append(0x22)
    }

    /// `text` as a JSON string literal: quote and backslash escaped, line feed, carriage return and tab as
    /// `\n`, `\r`, `\t`, every other C0 control, DEL and C1 control as `\uXXXX`, and so are the scalars
    /// `alsoEscaping` picks (e.g. bidirectional marks, for text shown in a terminal).
    /// - Parameters:
    ///   - text: any text.
    ///   - alsoEscaping: further scalars to write as `\uXXXX`.
    package static func quoted(_ text: String, alsoEscaping: (Unicode.Scalar) -> Bool = { _ in false }) -> String {
        // Most keys and words are printable ASCII with nothing to escape: copied whole, not scalar by scalar.
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte < 0x7F && byte != 0x22 && byte != 0x5C && !alsoEscaping(Unicode.Scalar(byte))
        }
        if plain { return "\"" + text + "\"" }
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // U+FEFF too: swift-corelibs-foundation's reader drops it raw at the start of a string or after an escape.
            case _
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFEFF
                || alsoEscaping(scalar):
                UnicodeEscape.appendJSON(scalar, to: &out)
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Valid JSON text with the scalars `shouldEscape` picks written as `\uXXXX` escapes.
    ///
    /// Outside strings valid JSON holds only ASCII punctuation, literals and the whitespace tab, line feed,
    /// carriage return and space; those four are left alone (inside strings a valid encoder has already
    /// escaped them), so every other scalar picked is inside a string, where its escape means the same
    /// character. The result is the same JSON value.
    /// - Parameters:
    ///   - json: valid JSON text (e.g. `JSONEncoder` output, or a document the user gave).
    ///   - shouldEscape: the scalars to escape, e.g. control characters and bidirectional marks.
    /// - Returns: `json` with those scalars escaped (`json` itself when it has none).
    package static func escaping(_ json: String, where shouldEscape: (Unicode.Scalar) -> Bool) -> String {
        func picked(_ scalar: Unicode.Scalar) -> Bool {
            scalar != "\t" && scalar != "\n" && scalar != "\r" && shouldEscape(scalar)
        }
        guard json.unicodeScalars.contains(where: picked) else { return json }
        var out = ""
        out.reserveCapacity(json.utf8.count + 16)
        for scalar in json.unicodeScalars {
            if picked(scalar) {
                UnicodeEscape.appendJSON(scalar, to: &out)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
