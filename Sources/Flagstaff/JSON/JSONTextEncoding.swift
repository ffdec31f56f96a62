import Foundation

/// How a JSON text is encoded, told from its first bytes, and the text as UTF-8.
///
/// RFC 8259 (§8.1) asks for UTF-8 and lets a reader ignore a leading byte-order mark; `JSONDecoder` and
/// `JSONSerialization` also read UTF-16 and UTF-32 (told by a byte-order mark or by the zero bytes around the
/// first character, which is ASCII in any JSON text). Every Flagstaff reader reads the same texts: a UTF-8
/// byte-order mark is skipped, UTF-16 and UTF-32 are transcoded to UTF-8 first.
package enum JSONTextEncoding: Equatable, Sendable {
    /// UTF-8, after `skip` bytes of byte-order mark (0 or 3).
    case utf8(skip: Int)
    /// UTF-16 (`unitSize` 2) or UTF-32 (4), after `skip` bytes of byte-order mark.
    case wide(unitSize: Int, bigEndian: Bool, skip: Int)

    /// `UTF-8`, `UTF-16` or `UTF-32`.
    package var name: String {
        switch self {
        case .utf8: "UTF-8"
        case .wide(let unitSize, _, _): unitSize == 2 ? "UTF-16" : "UTF-32"
        }
    }

    /// The encoding of JSON text: a byte-order mark, else the pattern of zero bytes in the first character.
    /// - Parameter bytes: the text's first bytes (four are enough).
    package static func detect(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONTextEncoding {
        func starts(_ prefix: [UInt8?]) -> Bool {
            guard bytes.count >= prefix.count else { return false }
            for (index, expected) in prefix.enumerated() {
                if let expected, bytes[index] != expected { return false }
                if expected == nil && bytes[index] == 0 { return false }
            }
            return true
        }
        if starts([0xEF, 0xBB, 0xBF]) { return .utf8(skip: 3) }
        if starts([0x00, 0x00, 0xFE, 0xFF]) { return .wide(unitSize: 4, bigEndian: true, skip: 4) }
        if starts([0xFF, 0xFE, 0x00, 0x00]) { return .wide(unitSize: 4, bigEndian: false, skip: 4) }
        if starts([0xFE, 0xFF]) { return .wide(unitSize: 2, bigEndian: true, skip: 2) }
        if starts([0xFF, 0xFE]) { return .wide(unitSize: 2, bigEndian: false, skip: 2) }
        if starts([0x00, 0x00, 0x00, nil]) { return .wide(unitSize: 4, bigEndian: true, skip: 0) }
        if starts([nil, 0x00, 0x00, 0x00]) { return .wide(unitSize: 4, bigEndian: false, skip: 0) }
        if starts([0x00, nil]) { return .wide(unitSize: 2, bigEndian: true, skip: 0) }
        if starts([nil, 0x00]) { return .wide(unitSize: 2, bigEndian: false, skip: 0) }
        return .utf8(skip: 0)
    }

    /// Whether a text holds nothing but JSON white space after an optional UTF-8 byte-order mark (an empty file or
    /// body, which readers report as such rather than as a syntax error).
    package static func isBlank(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? isWhiteSpace(bytes.dropFirst(3)) : isWhiteSpace(bytes)
    }

    private static func isWhiteSpace(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    /// The encoding of the JSON text in `data` (see ``detect(_:)-(UnsafeBufferPointer<UInt8>)``).
    package static func detect(_ data: Data) -> JSONTextEncoding {
        data.withUnsafeBytes { detect($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// UTF-16 or UTF-32 text as UTF-8, or `nil` if it is not valid (odd length, lone surrogates, …).
    /// - Parameters:
    ///   - bytes: the text.
    ///   - unitSize: 2 (UTF-16) or 4 (UTF-32).
    ///   - bigEndian: the byte order of each unit.
    ///   - skip: bytes of byte-order mark to leave out.
    package static func transcode(_ bytes: [UInt8], unitSize: Int, bigEndian: Bool, skip: Int) -> [UInt8]? {
        guard unitSize == 2 || unitSize == 4, skip >= 0, skip <= bytes.count, (bytes.count - skip) % unitSize == 0
        else { return nil }
        func unit(at index: Int) -> UInt32 {
            var value: UInt32 = 0
            for step in 0..<unitSize {
                let byte = UInt32(bytes[bigEndian ? index + step : index + unitSize - 1 - step])
                value = value << 8 | byte
            }
            return value
        }
        let starts = stride(from: skip, to: bytes.count, by: unitSize)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / unitSize)
        let failed: Bool
        if unitSize == 2 {
            failed = Swift.transcode(
                starts.lazy.map { UInt16(truncatingIfNeeded: unit(at: $0)) }.makeIterator(),
                from: UTF16.self, to: UTF8.self, stoppingOnError: true
            ) { output.append($0) }
        } else {
            failed = Swift.transcode(
                starts.lazy.map { unit(at: $0) }.makeIterator(),
                from: UTF32.self, to: UTF8.self, stoppingOnError: true
            ) { output.append($0) }
        }
        return failed ? nil : output
    }

    /// The JSON text in `data` as UTF-8 without a byte-order mark: `data` itself (no copy) when it is UTF-8
    /// without one, the bytes after the mark, or UTF-16 / UTF-32 text transcoded.
    /// - Parameter data: JSON text.
    /// - Returns: the UTF-8 text (its indices start at 0), or `nil` when `data` looks like UTF-16 or UTF-32
    ///   but is not valid (``detect(_:)-(Data)`` says which).
    package static func utf8Text(_ data: Data) -> Data? {
        switch detect(data) {
        case .utf8(let skip):
            if skip == 0 && data.startIndex == 0 { return data }
            return Data(data.dropFirst(skip))
        case .wide(let unitSize, let bigEndian, let skip):
            return transcode([UInt8](data), unitSize: unitSize, bigEndian: bigEndian, skip: skip).map { Data($0) }
        }
    }
}
