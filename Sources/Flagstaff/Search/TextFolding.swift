import Foundation

/// Case- and diacritic-insensitive folding into UTF-8 bytes, with word-start marks.
enum TextFolding {
    /// Appends the folded bytes of `text` and, for each byte, a bit set if it starts a word.
    /// - Returns: whether `text` was pure ASCII (then byte offsets equal character offsets).
    @discardableResult
    static func fold(_ text: String, bytes: inout [UInt8], wordStarts: inout BitList) -> Bool {
        var previous: UInt8 = 0  // 0 = none, else a class: 1 lower, 2 upper, 3 digit, 4 other
        let utf8 = text.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in utf8 {
                let current = asciiClass(byte)
                bytes.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
                wordStarts.append(isWordStart(previous: previous, current: current))
                previous = current
            }
            return true
        }
        for character in text {
            let current = characterClass(character)
            let start = isWordStart(previous: previous, current: current)
            var first = true
            for byte in foldedBytes(character) {
                bytes.append(byte)
                wordStarts.append(first && start)
                first = false
            }
            previous = current
        }
        return false
    }

    /// Folded bytes of one character.
    static func foldedBytes(_ character: Character) -> [UInt8] {
        if let ascii = character.asciiValue {
            return [ascii >= 65 && ascii <= 90 ? ascii + 32 : ascii]
        }
        let folded = String(character).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .lowercased()
        return Array(folded.utf8)
    }

    /// Folds a query (whole string).
    static func fold(query: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var marks = BitList()
        fold(query.trimmingCharacters(in: .whitespacesAndNewlines), bytes: &bytes, wordStarts: &marks)
        return bytes
    }

    private static func asciiClass(_ byte: UInt8) -> UInt8 {
        switch byte {
        case 97...122: return 1
        case 65...90: return 2
        case 48...57: return 3
        default: return byte >= 0x80 ? 1 : 4
        }
    }

    private static func characterClass(_ character: Character) -> UInt8 {
        if character.isLowercase { return 1 }
        if character.isUppercase { return 2 }
        if character.isNumber { return 3 }
        if character.isLetter { return 1 }
        return 4
    }

    private static func isWordStart(previous: UInt8, current: UInt8) -> Bool {
        if current == 4 { return false }
        switch previous {
        case 0, 4: return true
        case 1: return current == 2 || current == 3
        case 2: return current == 3
        case 3: return current != 3
        default: return false
        }
    }
}

/// A folded query shared by the results of one search.
final class FoldedQuery: Sendable {
    let bytes: [UInt8]
    /// The query bytes without spaces, for subsequence matching.
    let compact: [UInt8]
    /// `SearchIndex.byteSet` of `bytes` and of `compact`.
    let byteSet: UInt64
    let compactByteSet: UInt64

    init(_ query: String) {
        bytes = TextFolding.fold(query: query)
        compact = bytes.filter { $0 != 0x20 }
        byteSet = SearchIndex.byteSet(bytes)
        compactByteSet = SearchIndex.byteSet(compact)
    }
}

/// A growable list of bits, packed 64 to a word (the search index's word-start marks: one bit per byte).
struct BitList {
    private(set) var words: [UInt64] = []
    private(set) var count = 0

    mutating func reserveCapacity(_ bits: Int) {
        words.reserveCapacity((bits + 63) / 64)
    }

    mutating func append(_ bit: Bool) {
        if count & 63 == 0 { words.append(0) }
        if bit { words[count >> 6] |= 1 << UInt64(count & 63) }
        count += 1
    }

    subscript(position: Int) -> Bool {
        words[position >> 6] >> UInt64(position & 63) & 1 != 0
    }
}
