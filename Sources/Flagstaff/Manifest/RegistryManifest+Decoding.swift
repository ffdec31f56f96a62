import Foundation

/// Decoding: `decode(_:source:)` reads the bytes with `JSONReader`; the `Decodable` conformances are thin
/// wrappers over the same reader, so both follow one set of rules.
extension RegistryManifest {
    /// Decodes a manifest by the rules of `RegistryManifest.decode` (the decoder's value is read with `JSONReader`).
    /// - Throws: `DecodingError.dataCorrupted` at the JSON path of the value and with the message of `JSONReader`.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(from: decoder) { reader throws(ReadFailure) in try reader.readManifest() }
    }

    /// Decodes and validates a manifest from JSON.
    /// - Parameters:
    ///   - data: the JSON.
    ///   - source: the file name (or other origin) to name in errors.
    /// - Returns: the manifest.
    /// - Throws: `ManifestError` naming the source, the JSON path (`$.groups[0].flags[2].default`) and what
    ///   was expected.
    ///
    /// Reads the bytes in one pass (no `JSONDecoder`): much faster on large manifests than the `Decodable` path,
    /// with line and column for syntax errors. Checks members repeated in an object (an error here) and the
    /// registry name (it must be able to name the default store file: not empty, `.` or `..`, at most 200 UTF-8
    /// bytes, no `/` or `\`).
    public static func decode(_ data: Data, source: String = "manifest") throws -> RegistryManifest {
        let manifest = try JSONReader.readManifest(data, source: source)
        try manifest.validate(source: source)
        return manifest
    }

    /// Reads and decodes a manifest file.
    /// - Parameter url: the file.
    /// - Returns: the manifest.
    /// - Throws: `ManifestError` naming the file.
    public static func load(from url: URL) throws -> RegistryManifest {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ManifestError(
                source: url.path, path: nil,
                message: "cannot read the file (\((error as NSError).localizedDescription))")
        }
        return try decode(data, source: url.path)
    }
}

extension RegistryManifest.Group {
    /// Decodes a group by the rules of the manifest reader.
    /// - Throws: `DecodingError.dataCorrupted` at the JSON path of the value and with the message of `JSONReader`.
    package init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(from: decoder) { reader throws(ReadFailure) in try reader.readGroup() }
    }
}

extension RegistryManifest.Flag {
    /// Decodes a flag by the rules of the manifest reader.
    /// - Throws: `DecodingError.dataCorrupted` at the JSON path of the value and with the message of `JSONReader`.
    public init(from decoder: any Decoder) throws {
        self = try JSONReader.decode(from: decoder) { reader throws(ReadFailure) in try reader.readFlag() }
    }
}
