import Foundation

/// Reading a whole manifest with ``JSONReader``, errors as `ManifestError`s.
extension JSONReader {
    /// Reads a manifest from JSON text: UTF-8 (a byte-order mark is skipped), or UTF-16 / UTF-32 (detected
    /// like `JSONDecoder` does, by a byte-order mark or the zero bytes around the first character), which is
    /// transcoded to UTF-8 first.
    /// - Throws: `ManifestError` with the source, the JSON path and, for syntax errors, line and column.
    static func readManifest(_ data: Data, source: String) throws(ManifestError) -> RegistryManifest {
        do throws(ReadFailure) {
            return try withText(data, trailing: "after the manifest (only whitespace may follow its closing '}')") {
                reader throws(ReadFailure) in try reader.readManifest()
            }
        } catch {
            throw ManifestError(error, source: source)
        }
    }
}

extension ManifestError {
    /// The reader's failure, as a manifest error: `not valid JSON at line 2, column 17: unterminated string`.
    init(_ failure: ReadFailure, source: String) {
        var message = failure.message
        if failure.kind == .empty {
            message =
                "not valid JSON: the file is empty (expected an object such as {\"name\": \"My app\", \"flags\": []})"
        } else if let (line, column) = failure.location {
            message = "not valid JSON at line \(line), column \(column): \(message)"
        } else if failure.kind == .encoding {
            message = "not valid JSON: \(message)"
        }
        self.init(source: source, path: failure.jsonPath, message: message)
    }
}
