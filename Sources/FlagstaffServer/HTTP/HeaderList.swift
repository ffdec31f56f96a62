/// The elements of an HTTP header list (`a, b;q=0`): split at commas, optional white space (space, tab) around
/// each removed, empty elements skipped. Reads the header's UTF-8 without Foundation: the server parses
/// `Accept-Encoding` and `If-None-Match` on every request.
enum HeaderList {
    /// Calls `body` with each element of `header` in order until it returns `true`.
    /// - Returns: whether `body` returned `true` for some element.
    static func contains(in header: Substring, where body: (Substring) -> Bool) -> Bool {
        for element in header.split(separator: ",", omittingEmptySubsequences: true) {
            let trimmed = trimmed(element)
            if !trimmed.isEmpty, body(trimmed) { return true }
        }
        return false
    }

    /// `text` without leading and trailing spaces and tabs.
    static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return text[text.endIndex...] }
        return text[first...last]
    }
}
