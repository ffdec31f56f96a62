/// A folded copy of every flag's searchable texts in one contiguous buffer, built once per set of flags.
///
/// Memory: about one byte per character of key, label, group path and description, plus about 60 bytes per
/// flag (field bounds, byte sets, one bit per byte for word starts).
final class SearchIndex: Sendable {
    static let fieldCount = SearchField.allCases.count

    let features: [AnyFeature]
    let bytes: [UInt8]
    /// One bit per byte of `bytes`: set where a word starts.
    let wordStarts: [UInt64]
    /// For entry `e`, field `f`: bytes `bounds[e*5+f] ..< bounds[e*5+f+1]`.
    let bounds: [Int32]
    /// Per entry, bit `f` set when field `f` is pure ASCII.
    private let asciiMask: [UInt8]
    /// Per entry and field, a 64-bit set of the bytes present (byte & 63): a field can only match a query
    /// whose byte set it contains, so most fields are rejected without being scanned.
    let byteSets: [UInt64]

    init(features: [AnyFeature]) {
        self.features = features
        // Every flag's four texts first, to size the buffers once: growing them by doubling would briefly
        // take twice the memory (tens of megabytes at 100,000 flags). Flags of one group share its path text.
        var texts: [String] = []
        texts.reserveCapacity(features.count * Self.fieldCount)
        var lastGroup: RegistryGroup?
        var lastGroupText = ""
        var total = 0
        for feature in features {
            let group = feature.enclosingGroup
            if group !== lastGroup {
                lastGroup = group
                lastGroupText = SearchField.groupPath.text(of: feature)
            }
            for field in Self.fields {
                let text = field == .groupPath ? lastGroupText : field.text(of: feature)
                total += text.utf8.count
                texts.append(text)
            }
        }
        var bytes: [UInt8] = []
        var wordStarts = BitList()
        var bounds: [Int32] = []
        var asciiMask: [UInt8] = []
        var byteSets: [UInt64] = []
        // Folding keeps ASCII lengths; other scripts may fold a little longer or shorter.
        bytes.reserveCapacity(total + total / 32 + 64)
        wordStarts.reserveCapacity(total + total / 32 + 64)
        byteSets.reserveCapacity(features.count * Self.fieldCount)
        bounds.reserveCapacity(features.count * (Self.fieldCount + 1))
        asciiMask.reserveCapacity(features.count)
        for entry in features.indices {
            var mask: UInt8 = 0
            for field in Self.fields {
                bounds.append(Int32(bytes.count))
                let start = bytes.count
                if TextFolding.fold(
                    texts[entry * Self.fieldCount + field.rawValue], bytes: &bytes, wordStarts: &wordStarts)
                {
                    mask |= 1 << UInt8(field.rawValue)
                }
                byteSets.append(Self.byteSet(bytes[start...]))
            }
            bounds.append(Int32(bytes.count))
            asciiMask.append(mask)
        }
        texts = []
        // Non-ASCII text that folded much longer than estimated made the buffer grow: copy it to its size.
        self.bytes =
            bytes.capacity > bytes.count + bytes.count / 16 + 64 ? bytes.withUnsafeBufferPointer { Array($0) } : bytes
        self.wordStarts = wordStarts.words
        self.bounds = bounds
        self.asciiMask = asciiMask
        self.byteSets = byteSets
    }

    /// The fields in ranking order (`allCases` would build an array on every call).
    private static let fields = SearchField.allCases

    /// The 64-bit set of bytes (modulo 64) in `bytes`.
    static func byteSet<C: Collection<UInt8>>(_ bytes: C) -> UInt64 {
        var set: UInt64 = 0
        for byte in bytes { set |= 1 << UInt64(byte & 63) }
        return set
    }

    /// The best match of the query over all fields of an entry: kind, field and byte position.
    func bestMatch(_ query: FoldedQuery, entry: Int) -> (kind: SearchMatchKind, field: SearchField, position: Int)? {
        withMatcher(query) { $0.bestMatch(entry: entry) }
    }

    /// The best match of the query in one field of one entry: kind and byte position relative to the field.
    func locate(_ query: FoldedQuery, entry: Int, field: SearchField) -> (kind: SearchMatchKind, position: Int)? {
        withMatcher(query) { $0.locate(entry: entry, field: field, better: .unfiltered) }
    }

    struct Match {
        var kind: SearchMatchKind
        /// Byte offsets (relative to the field start) of matched runs: (start, length).
        var runs: [(Int, Int)]
    }

    /// The best match of the query in one field of one entry, with its runs for highlighting, or `nil`.
    func match(_ query: FoldedQuery, entry: Int, field: SearchField) -> Match? {
        guard let found = locate(query, entry: entry, field: field) else { return nil }
        guard found.kind == .subsequence else {
            return Match(kind: found.kind, runs: [(found.position, query.bytes.count)])
        }
        let slot = entry * (Self.fieldCount + 1) + field.rawValue
        return bytes.withUnsafeBufferPointer { text in
            Self.subsequenceRuns(query.compact, in: text, start: Int(bounds[slot]), end: Int(bounds[slot + 1]))
                .map { Match(kind: .subsequence, runs: $0) }
        }
    }

    /// The runs (start relative to the field, length) of the needle's bytes found in order, or `nil`.
    private static func subsequenceRuns(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, start: Int, end: Int)
        -> [(Int, Int)]?
    {
        guard !needle.isEmpty, end - start >= needle.count else { return nil }
        var runs: [(Int, Int)] = []
        var position = start
        for byte in needle {
            while position < end && text[position] != byte { position += 1 }
            if position == end { return nil }
            if let lastRun = runs.last, lastRun.0 + lastRun.1 == position - start {
                runs[runs.count - 1].1 += 1
            } else {
                runs.append((position - start, 1))
            }
            position += 1
        }
        return runs
    }

    /// Converts a match's byte runs into `Character` offset ranges of the field's original text.
    func characterRanges(of match: Match, entry: Int, field: SearchField, feature: AnyFeature) -> [Range<Int>] {
        if asciiMask[entry] & (1 << UInt8(field.rawValue)) != 0 {
            return match.runs.map { $0.0..<$0.0 + $0.1 }
        }
        // Map folded byte offsets to character offsets by folding the text again.
        var byteToCharacter: [Int] = []
        for (offset, character) in field.text(of: feature).enumerated() {
            byteToCharacter.append(contentsOf: repeatElement(offset, count: TextFolding.foldedBytes(character).count))
        }
        var ranges: [Range<Int>] = []
        for (start, length) in match.runs where start + length <= byteToCharacter.count && length > 0 {
            let range = byteToCharacter[start]..<byteToCharacter[start + length - 1] + 1
            if let last = ranges.last, last.upperBound >= range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        return ranges
    }
}
