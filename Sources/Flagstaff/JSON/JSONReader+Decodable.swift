import Foundation

/// `Decodable` conformances as thin wrappers over ``JSONReader``.
extension JSONReader {
    /// Decodes a value with `read`: the decoder's value is taken as any JSON value, written back as compact JSON
    /// and read with `read`, so a `Decodable` conformance follows the reader's rules and messages.
    /// - Parameters:
    ///   - decoder: the decoder (any format whose values are JSON values).
    ///   - read: reads the value.
    /// - Throws: the decoder's errors; `DecodingError.dataCorrupted` with the reader's message, at the coding
    ///   path of the value that failed.
    static func decode<T>(from decoder: any Decoder, _ read: (inout JSONReader) throws(ReadFailure) -> T) throws -> T {
        let text = JSONSettingValue.storedValue(of: try JSONSettingValue(from: decoder)).json
        do throws(ReadFailure) {
            return try withUTF8(Data(text.utf8), read)
        } catch {
            let path = error.components.map { component -> any CodingKey in
                switch component {
                case .member(let name): PathKey(stringValue: name)
                case .index(let index): PathKey(intValue: index)
                }
            }
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath + path, debugDescription: error.detail))
        }
    }

    /// A member name or array index in a coding path.
    private struct PathKey: CodingKey {
        var stringValue: String
        var intValue: Int?

        init(stringValue: String) {
            self.stringValue = stringValue
            intValue = nil
        }

        init(intValue: Int) {
            stringValue = "Index \(intValue)"
            self.intValue = intValue
        }
    }
}
