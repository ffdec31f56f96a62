#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folded copy of every flag's searchable texts in one contiguous buffer, built once per set of flags.
///
/// Memory: about one byte per character of key, label, group path and description, plus 36 bytes per flag.
final class SearchIndex: Sendable {
    static let fieldCount = SearchField.allCases.count

    let features: [AnyFeature]
    private let bytes: [UInt8]
    /// One bit per byte of `bytes`: set where a word starts.
    private let wordStarts: [UInt64]
    /// For entry `e`, field `f`: bytes `bounds[e*5+f] ..< bounds[e*5+f+1]`.
    private let bounds: [Int32]
    /// Per entry, bit `f` set when field `f` is pure ASCII.
    private let asciiMask: [UInt8]
    /// Per entry and field, a 64-bit set of the bytes present (byte & 63): a field can only match a query
    /// whose byte set it contains, so most fields are rejected without being scanned.
    private let byteSets: [UInt64]

    init(features: [AnyFeature]) {
        self.features = features
        var bytes: [UInt8] = []
        var wordStarts: [UInt8] = []
        var bounds: [Int32] = []
        var asciiMask: [UInt8] = []
        var byteSets: [UInt64] = []
        byteSets.reserveCapacity(features.count * Self.fieldCount)
        bytes.reserveCapacity(features.count * 64)
        wordStarts.reserveCapacity(features.count * 64)
        bounds.reserveCapacity(features.count * (Self.fieldCount + 1))
        for feature in features {
            var mask: UInt8 = 0
            for field in SearchField.allCases {
                bounds.append(Int32(bytes.count))
                let start = bytes.count
                if TextFolding.fold(field.text(of: feature), bytes: &bytes, wordStarts: &wordStarts) {
                    mask |= 1 << UInt8(field.rawValue)
                }
                byteSets.append(Self.byteSet(bytes[start...]))
            }
            bounds.append(Int32(bytes.count))
            asciiMask.append(mask)
        }
        // Copy into an exactly sized buffer: growth may have left the builder's capacity nearly double.
        self.bytes = bytes.withUnsafeBufferPointer { Array($0) }
        var bits = [UInt64](repeating: 0, count: (wordStarts.count + 63) / 64)
        for (position, mark) in wordStarts.enumerated() where mark != 0 {
            bits[position >> 6] |= 1 << UInt64(position & 63)
        }
        self.wordStarts = bits
        self.bounds = bounds
        self.asciiMask = asciiMask
        self.byteSets = byteSets
    }

    /// The 64-bit set of bytes (modulo 64) in `bytes`.
    static func byteSet<C: Collection<UInt8>>(_ bytes: C) -> UInt64 {
        var set: UInt64 = 0
        for byte in bytes { set |= 1 << UInt64(byte & 63) }
        return set
    }

    /// The fields in ranking order (`allCases` would build an array on every call).
    private static let fields = SearchField.allCases

    /// The best match of the query over all fields of an entry: kind, field and byte position.
    func bestMatch(_ query: FoldedQuery, entry: Int) -> (kind: SearchMatchKind, field: SearchField, position: Int)? {
        var best: (kind: SearchMatchKind, field: SearchField, position: Int)?
        let base = entry * Self.fieldCount
        for field in Self.fields {
            let set = byteSets[base + field.rawValue]
            let substringPossible = set & query.byteSet == query.byteSet
            let subsequencePossible = (field == .key || field == .label) && set & query.compactByteSet == query.compactByteSet
            guard substringPossible || subsequencePossible else { continue }
            // A later field wins only with a strictly better kind (ranking is kind first, then field).
            guard let found = locate(query, entry: entry, field: field, better: best?.kind ?? .unfiltered) else { continue }
            best = (found.kind, field, found.position)
            if found.kind == .exact { break }
        }
        return best
    }

    struct Match {
        var kind: SearchMatchKind
        /// Byte offsets (relative to the field start) of matched runs: (start, length).
        var runs: [(Int, Int)]
    }

    /// The best match of the query in one field of one entry, with its runs for highlighting, or `nil`.
    func match(_ query: FoldedQuery, entry: Int, field: SearchField) -> Match? {
        guard let found = locate(query, entry: entry, field: field) else { return nil }
        guard found.kind == .subsequence else { return Match(kind: found.kind, runs: [(found.position, query.bytes.count)]) }
        let (start, end) = range(entry: entry, field: field)
        return bytes.withUnsafeBufferPointer { text in
            Self.subsequenceRuns(query.compact, in: text, start: start, end: end).map { Match(kind: .subsequence, runs: $0) }
        }
    }

    private func range(entry: Int, field: SearchField) -> (Int, Int) {
        let slot = entry * (Self.fieldCount + 1) + field.rawValue
        return (Int(bounds[slot]), Int(bounds[slot + 1]))
    }

    /// The best match of the query in one field of one entry: its kind and byte position relative to the
    /// field's start, or `nil`; only kinds better than `better` are looked for. Allocates nothing (it runs for
    /// every candidate of every keystroke).
    func locate(_ query: FoldedQuery, entry: Int, field: SearchField,
                better: SearchMatchKind = .unfiltered) -> (kind: SearchMatchKind, position: Int)? {
        let (start, end) = range(entry: entry, field: field)
        let length = end - start
        guard !query.bytes.isEmpty, length > 0 else { return nil }
        return bytes.withUnsafeBufferPointer { text -> (kind: SearchMatchKind, position: Int)? in
            query.bytes.withUnsafeBufferPointer { needle -> (kind: SearchMatchKind, position: Int)? in
                if length >= needle.count {
                    if Self.equal(text, start, needle) {
                        let kind: SearchMatchKind = length == needle.count ? .exact : .prefix
                        return kind < better ? (kind, 0) : nil  // nothing later in the field is better
                    }
                    let last = end - needle.count
                    if better > .wordStart, let position = wordStartHit(text, needle, from: start + 1, through: last) {
                        return (.wordStart, position - start)
                    }
                    if better > .substring, let position = Self.firstHit(text, needle, from: start + 1, through: last) {
                        return (.substring, position - start)
                    }
                }
                guard field == .key || field == .label, better > .subsequence else { return nil }
                return query.compact.withUnsafeBufferPointer { compact in
                    Self.subsequenceStart(compact, in: text, start: start, end: end).map { (.subsequence, $0 - start) }
                }
            }
        }
    }

    /// The first word start in `from...through` where the needle occurs, checking only marked word starts.
    private func wordStartHit(_ text: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>,
                              from: Int, through: Int) -> Int? {
        guard from <= through else { return nil }
        var word = from >> 6
        while word <= through >> 6 {
            var bits = wordStarts[word]
            if word == from >> 6 { bits &= ~0 << UInt64(from & 63) }
            if word == through >> 6 && through & 63 != 63 { bits &= (1 << UInt64((through & 63) + 1)) - 1 }
            while bits != 0 {
                let position = word << 6 + bits.trailingZeroBitCount
                if Self.equal(text, position, needle) { return position }
                bits &= bits - 1
            }
            word += 1
        }
        return nil
    }

    /// The first position in `from...through` where the needle occurs.
    private static func firstHit(_ text: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>,
                                 from: Int, through: Int) -> Int? {
        guard let base = text.baseAddress else { return nil }
        let first = Int32(needle[0])
        var position = from
        while position <= through {
            // memchr: the C library's vectorised byte search.
            guard let hit = memchr(base + position, first, through - position + 1) else { return nil }
            position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if equal(text, position, needle) { return position }
            position += 1
        }
        return nil
    }

    private static func equal(_ text: UnsafeBufferPointer<UInt8>, _ at: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < needle.count {
            if text[at + i] != needle[i] { return false }
            i += 1
        }
        return true
    }

    /// Where the needle's bytes start to appear in order in `text[start..<end]`, or `nil`.
    private static func subsequenceStart(_ needle: UnsafeBufferPointer<UInt8>, in text: UnsafeBufferPointer<UInt8>,
                                         start: Int, end: Int) -> Int? {
        guard !needle.isEmpty, end - start >= needle.count else { return nil }
        var position = start
        var firstPosition = -1
        for byte in needle {
            while position < end && text[position] != byte { position += 1 }
            if position == end { return nil }
            if firstPosition < 0 { firstPosition = position }
            position += 1
        }
        return firstPosition
    }

    /// The runs (start relative to the field, length) of the needle's bytes found in order, or `nil`.
    private static func subsequenceRuns(_ needle: [UInt8], in text: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> [(Int, Int)]? {
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
            return match.runs.map { $0.0 ..< $0.0 + $0.1 }
        }
        // Map folded byte offsets to character offsets by folding the text again.
        var byteToCharacter: [Int] = []
        for (offset, character) in field.text(of: feature).enumerated() {
            byteToCharacter.append(contentsOf: repeatElement(offset, count: TextFolding.foldedBytes(character).count))
        }
        var ranges: [Range<Int>] = []
        for (start, length) in match.runs where start + length <= byteToCharacter.count && length > 0 {
            let range = byteToCharacter[start] ..< byteToCharacter[start + length - 1] + 1
            if let last = ranges.last, last.upperBound >= range.lowerBound {
                ranges[ranges.count - 1] = last.lowerBound ..< max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        return ranges
    }
}
