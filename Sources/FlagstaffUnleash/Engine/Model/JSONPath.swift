import Foundation

/// Turns `Codable` coding paths and errors into the messages users see (`features[2].strategies[0].name: …`).
enum JSONPath {
    /// The message for a decoding error of `data`: for malformed JSON, where it breaks (line and column, found by
    /// re-reading with `JSONSerialization`, whose error gives the position the decoder's does not).
    static func message(of error: DecodingError, in data: Data) -> String {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let syntax = syntaxError(in: data) {
            return syntax
        }
        return message(of: error)
    }

    /// `not valid JSON at line 2, column 13 (Invalid value around character 53.)`, or `nil` if `data` parses.
    static func syntaxError(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let detail =
                (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error.localizedDescription)"
            guard let range = detail.range(of: "character "),
                let offset = Int(detail[range.upperBound...].prefix { $0.isNumber })
            else { return "not valid JSON (\(detail))" }
            var line = 1
            var column = 1
            for byte in data.prefix(offset) {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
            return "not valid JSON at line \(line), column \(column) (\(detail))"
        }
    }

    /// `features[2].strategies[0].name` for a coding path.
    static func describe(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// The path at which a decoding error happened.
    static func path(of error: DecodingError) -> [any CodingKey] {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath
        case .keyNotFound(let key, let context):
            return context.codingPath + [key]
        @unknown default:
            return []
        }
    }

    /// A short human message for a decoding error, without the path.
    static func message(of error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            return context.debugDescription.isEmpty ? "expected \(type)" : context.debugDescription
        case .valueNotFound(let type, _):
            return "expected \(type), found null"
        case .keyNotFound(let key, _):
            return "required key \"\(key.stringValue)\" is missing"
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError {
                return "not valid JSON (\(underlying.localizedDescription))"
            }
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}
