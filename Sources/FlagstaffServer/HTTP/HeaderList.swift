/// The elements of an HTTP header list (`a, b;q=0`): split at commas, optional white space (space, tab) around
/// each removed, empty elements skipped. Reads the header's UTF-8 without Foundation: the server parses
/// `Accept-Encoding` and `If-None-Match` on every request.
enum HeaderList {
    /// The elements of `header`, in order, trimmed, without empty ones.
    static func elements(_ header: String) -> [Substring] {
        header.split(separator: ",").map(trimmed).filter { !$0.isEmpty }
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }

    /// `bytes` without leading and trailing spaces and tabs, in place.
    static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        let isSpace: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }
}
