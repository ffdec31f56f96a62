/// JSON string literals written by hand (the store file, error messages naming JSON keys, the CLI's output).
package enum JSONText {
    /// `text` as a JSON string literal: quote and backslash escaped, line feed, carriage return and tab as
    /// `\n`, `\r`, `\t`, every other C0 control, DEL and C1 control as `\uXXXX`, and so are the scalars
    /// `alsoEscaping` picks (e.g. bidirectional marks, for text shown in a terminal).
    /// - Parameters:
    ///   - text: any text.
    ///   - alsoEscaping: further scalars to write as `\uXXXX`.
    package static func quoted(_ text: String, alsoEscaping: (Unicode.Scalar) -> Bool = { _ in false }) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || alsoEscaping(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
