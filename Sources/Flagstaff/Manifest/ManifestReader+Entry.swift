import Foundation

/// Reading a whole manifest: text encoding, the top-level value, trailing bytes, and errors as
/// `ManifestError`s.
extension ManifestReader {
    /// Reads a manifest from JSON text: UTF-8 (a byte-order mark is skipped), or UTF-16 / UTF-32 (detected
    /// like `JSONDecoder` does, by a byte-order mark or the zero bytes around the first character), which is
    /// transcoded to UTF-8 first.
    /// - Throws: `ManifestError` with the source, the JSON path and, for syntax errors, line and column.
    static func read(_ data: Data, source: String) throws -> RegistryManifest {
        let encoding = JSONTextEncoding.detect(data)
        switch encoding {
        case .utf8(let skip):
            return try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> RegistryManifest in
                let bytes = raw.assumingMemoryBound(to: UInt8.self)
                return try read(utf8: UnsafeBufferPointer(rebasing: bytes[min(skip, bytes.count)...]), source: source)
            }
        case .wide(let unitSize, let bigEndian, let skip):
            guard
                let utf8 = JSONTextEncoding.transcode(
                    [UInt8](data), unitSize: unitSize, bigEndian: bigEndian, skip: skip)
            else {
                let name = encoding.name
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
}
