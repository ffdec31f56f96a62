extension SearchIndex {
    /// Runs `body` with a matcher over this index's buffers and the query's bytes (valid only inside `body`).
    func withMatcher<Result>(_ query: FoldedQuery, _ body: (SearchMatcher) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { text in
            wordStarts.withUnsafeBufferPointer { wordStarts in
                bounds.withUnsafeBufferPointer { bounds in
                    byteSets.withUnsafeBufferPointer { byteSets in
                        query.bytes.withUnsafeBufferPointer { needle in
                            query.compact.withUnsafeBufferPointer { compact in
                                body(
                                    SearchMatcher(
                                        text: text, wordStarts: wordStarts, bounds: bounds, byteSets: byteSets,
                                        needle: needle, compact: compact,
                                        needleSet: query.byteSet, compactSet: query.compactByteSet))
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The matching rules over raw views of a ``SearchIndex`` and a query: no allocation and no reference
/// counting per candidate (a one-letter query over 100,000 flags checks 400,000 fields).
struct SearchMatcher {
    let text: UnsafeBufferPointer<UInt8>
    let wordStarts: UnsafeBufferPointer<UInt64>
    let bounds: UnsafeBufferPointer<Int32>
    let byteSets: UnsafeBufferPointer<UInt64>
    let needle: UnsafeBufferPointer<UInt8>
    let compact: UnsafeBufferPointer<UInt8>
    let needleSet: UInt64
    let compactSet: UInt64

    private static let fields = SearchField.allCases
    private static let fieldCount = SearchField.allCases.count

    /// The best match over all fields of an entry: kind, field and byte position. Ranking is kind first,
    /// then field, so a later field is only searched for strictly better kinds.
    func bestMatch(entry: Int) -> (kind: SearchMatchKind, field: SearchField, position: Int)? {
        var best: (kind: SearchMatchKind, field: SearchField, position: Int)?
        let base = entry * Self.fieldCount
        for field in Self.fields {
            let set = byteSets[base + field.rawValue]
            let substringPossible = set & needleSet == needleSet
            let subsequencePossible = (field == .key || field == .label) && set & compactSet == compactSet
            guard substringPossible || subsequencePossible else { continue }
            guard let found = locate(entry: entry, field: field, better: best?.kind ?? .unfiltered) else { continue }
            best = (found.kind, field, found.position)
            if found.kind == .exact { break }
        }
        return best
    }

    /// The best match of a query that extends a shorter one, given the shorter query's bucket for the entry.
    ///
    /// A longer query never matches better than its prefix: a match of it of some kind in a field is a match of
    /// the prefix of that kind or better, at the same place. So when the longer query still matches where the
    /// shorter one matched best (same field, same position; exact and subsequence matches excepted), that is
    /// its best match too, found with one comparison. Otherwise every field is searched.
    func bestMatch(entry: Int, extending hint: UInt16) -> (kind: SearchMatchKind, field: SearchField, position: Int)? {
        let (kind, field, position) = SearchBucket.decode(hint)
        if kind != .exact && kind != .subsequence && position < SearchBucket.positions - 1 {
            let slot = entry * (Self.fieldCount + 1) + field.rawValue
            let start = Int(bounds[slot])
            let end = Int(bounds[slot + 1])
            let at = start + position
            if at + needle.count <= end && equal(at: at) {
                // A prefix match that now covers the whole field is exact.
                let found: SearchMatchKind = kind == .prefix && end - start == needle.count ? .exact : kind
                return (found, field, position)
            }
        }
        return bestMatch(entry: entry)
    }

    /// The best match in one field of one entry, looking only for kinds better than `better`: its kind and
    /// byte position relative to the field's start, or `nil`.
    func locate(entry: Int, field: SearchField, better: SearchMatchKind) -> (kind: SearchMatchKind, position: Int)? {
        let slot = entry * (Self.fieldCount + 1) + field.rawValue
        let start = Int(bounds[slot])
        let end = Int(bounds[slot + 1])
        let length = end - start
        guard !needle.isEmpty, length > 0 else { return nil }
        if length >= needle.count {
            if equal(at: start) {
                let kind: SearchMatchKind = length == needle.count ? .exact : .prefix
                return kind < better ? (kind, 0) : nil  // nothing later in the field is better
            }
            let last = end - needle.count
            if better > .wordStart, let position = wordStartHit(from: start + 1, through: last) {
                return (.wordStart, position - start)
            }
            if better > .substring, let position = firstHit(from: start + 1, through: last) {
                return (.substring, position - start)
            }
        }
        guard field == .key || field == .label, better > .subsequence else { return nil }
        return subsequenceStart(start: start, end: end).map { (.subsequence, $0 - start) }
    }

    /// The first marked word start in `from...through` where the needle occurs.
    private func wordStartHit(from: Int, through: Int) -> Int? {
        guard from <= through else { return nil }
        var word = from >> 6
        while word <= through >> 6 {
            var bits = wordStarts[word]
            if word == from >> 6 { bits &= ~0 << UInt64(from & 63) }
            if word == through >> 6 && through & 63 != 63 { bits &= (1 << UInt64((through & 63) + 1)) - 1 }
            while bits != 0 {
                let position = word << 6 + bits.trailingZeroBitCount
                if equal(at: position) { return position }
                bits &= bits - 1
            }
            word += 1
        }
        return nil
    }

    /// The first position in `from...through` where the needle occurs.
    private func firstHit(from: Int, through: Int) -> Int? {
        guard let base = text.baseAddress else { return nil }
        let first = needle[0]
        var position = from
        while position <= through {
            // memchr: the C library's vectorised byte search.
            guard let hit = Platform.findByte(first, in: base + position, count: through - position + 1) else {
                return nil
            }
            position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if equal(at: position) { return position }
            position += 1
        }
        return nil
    }

    private func equal(at position: Int) -> Bool {
        var i = 0
        while i < needle.count {
            if text[position + i] != needle[i] { return false }
            i += 1
        }
        return true
    }

    /// Where the query's bytes (without spaces) start to appear in order in `text[start..<end]`, or `nil`.
    private func subsequenceStart(start: Int, end: Int) -> Int? {
        guard !compact.isEmpty, end - start >= compact.count else { return nil }
        var position = start
        var firstPosition = -1
        for byte in compact {
            while position < end && text[position] != byte { position += 1 }
            if position == end { return nil }
            if firstPosition < 0 { firstPosition = position }
            position += 1
        }
        return firstPosition
    }
}
