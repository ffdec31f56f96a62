/// A manifest could not be used: names the file, the JSON path and what was expected.
public struct ManifestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file (or other origin) of the manifest.
    public var source: String
    /// The JSON path of the offending value, e.g. `$.groups[0].flags[2].default`, if known.
    public var path: String?
    /// What was wrong and what was expected.
    public var message: String

    /// Creates an error.
    public init(source: String, path: String?, message: String) {
        self.source = source
        self.path = path
        self.message = message
    }

    /// `manifest.json: $.flags[0].default: expected a boolean (true or false)`.
    public var description: String {
        if let path { return "\(source): \(path): \(message)" }
        return "\(source): \(message)"
    }

    init(decodingError: DecodingError, source: String) {
        func jsonPath(_ codingPath: [any CodingKey]) -> String {
            codingPath.reduce("$") { path, key in
                if let index = key.intValue { return "\(path)[\(index)]" }
                return "\(path).\(key.stringValue)"
            }
        }
        switch decodingError {
        case let .typeMismatch(type, context):
            self.init(source: source, path: jsonPath(context.codingPath), message: "expected \(Self.describe(type))")
        case let .valueNotFound(type, context):
            self.init(source: source, path: jsonPath(context.codingPath), message: "expected \(Self.describe(type)), found null")
        case let .keyNotFound(key, context):
            self.init(source: source, path: jsonPath(context.codingPath + [key]), message: "missing required field \"\(key.stringValue)\"")
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty {
                let underlying = context.underlyingError.map { " (\($0.localizedDescription))" } ?? ""
                self.init(source: source, path: nil, message: "not valid JSON\(underlying)")
            } else {
                self.init(source: source, path: jsonPath(context.codingPath), message: context.debugDescription)
            }
        @unknown default:
            self.init(source: source, path: nil, message: "\(decodingError)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: return "a boolean (true or false)"
        case is String.Type: return "a string"
        case is FeatureKind.Type: return "a kind: one of " + FeatureKind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        case is BuildTarget.Type: return "a build target: one of " + BuildTarget.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") || name.contains("Group") || name.contains("Flag") || name.contains("Manifest") || name.contains("Remote") { return "an object" }
            return name
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    static func rejectUnknownKeys(in decoder: any Decoder, known: [String]) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + [key],
                debugDescription: "unknown field \"\(key.stringValue)\" (expected one of: \(known.joined(separator: ", ")))"))
        }
    }
}
