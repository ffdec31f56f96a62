/// Parses numbers the way Unleash's reference engine (Rust's `f64::from_str`) does.
///
/// Accepts `3`, `+3`, `-3.5`, `3.`, `.5`, `1e3`, `inf`, `-infinity`, `NaN`; rejects surrounding spaces, hexadecimal
/// (`0x3`, which Swift's `Double(_:)` would accept) and digit separators.
enum NumberParsing {
    /// The number `text` spells, or `nil`.
    @inline(__always)
    static func parse(_ text: String) -> Double? {
        for byte in text.utf8
        where byte == UInt8(ascii: "x") || byte == UInt8(ascii: "X") || byte == UInt8(ascii: "p")
            || byte == UInt8(ascii: "P") || byte == UInt8(ascii: "(")
        {
            return nil
        }
        return Double(text)
    }
}
