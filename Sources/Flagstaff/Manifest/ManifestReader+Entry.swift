import Foundation

/// Reading a whole manifest: text encoding, the top-level value, trailing bytes, and errors as
/// `ManifestError`s.
extension ManifestReader {
    /// Reads a manifest from JSON text: UTF-8 (a byte-order mark is skipped), or UTF-16 / UTF-32 (detected
    /// like `JSONDecoder` does, by a byte-order mark or the zero bytes around the first character), which is
    /// transcoded to UTF-8 first.
    /// - Throws: `ManifestError` with the source, the JSON path and, for syntax errors, line and column.
    static func read(_ data: Data, source: String) throws -> RegistryManifest {
        let encoding = data.withUnsafeBytes { detectEncoding($0.assumingMemoryBound(to: UInt8.self)) }
        switch encoding {
        case .utf8(let skip):
            return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> RegistryManifest in
                let bytes = raw.assumingMemoryBound(to: UInt8.self)
                return try read(utf8: UnsafeBufferPointer(rebasing: bytes[min(skip, bytes.count)...]), source: source)
            }
        case .wide(let unitSize, let bigEndian, let skip):
            guard let utf8 = transcode([UInt8](data), unitSize: unitSize, bigEndian: bigEndian, skip: skip) else {
                let name = unitSize == 2 ? "UTF-16" : "UTF-32"
                throw ManifestError(
                    source: source, path: "$",
                    message: "not valid JSON: the text looks like \(name) but is not valid \(name)")
            }
            return try utf8.withUnsafeBufferPointer { (bytes) throws(ManifestError) -> RegistryManifest in
                try read(utf8: bytes, source: source)
            }
        }
    }

    /// Reads a manifest from UTF-8 text.
    static func read(utf8 bytes: UnsafeBufferPointer<UInt8>, source: String) throws(ManifestError) -> RegistryManifest {
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            throw ManifestError(
                source: source, path: "$",
                message:
                    "not valid JSON: the file is empty (expected an object such as {\"name\": \"My app\", \"flags\": []})"
            )
        }
        var reader = ManifestReader(base: base, count: bytes.count)
        do throws(ReadFailure) {
            let manifest = try reader.readManifest()
            reader.skipWhitespace()
            guard reader.atEnd else {
                throw reader.syntaxError(
                    "unexpected \(reader.foundHere) after the manifest (only whitespace may follow its closing '}')")
            }
            return manifest
        } catch {
            var message = error.message
            if let offset = error.offset {
                let (line, column) = reader.lineAndColumn(of: offset)
                message = "not valid JSON at line \(line), column \(column): \(message)"
            }
            throw ManifestError(source: source, path: error.jsonPath, message: message)
        }
    }

    enum TextEncoding: Equatable {
        case utf8(skip: Int)
        case wide(unitSize: Int, bigEndian: Bool, skip: Int)
    }

    /// The encoding of JSON text: a byte-order mark, else the pattern of zero bytes (JSON text starts with
    /// an ASCII character, so UTF-16 and UTF-32 have zero bytes in the first unit).
    static func detectEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> TextEncoding {
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

    /// UTF-16 or UTF-32 text as UTF-8, or `nil` if it is not valid (odd length, lone surrogates, …).
    static func transcode(_ bytes: [UInt8], unitSize: Int, bigEndian: Bool, skip: Int) -> [UInt8]? {
        guard skip <= bytes.count, (bytes.count - skip) % unitSize == 0 else { return nil }
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
}
