/// Turns `Codable` coding paths and errors into the messages users see (`features[2].strategies[0].name: …`).
enum JSONPath {
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
