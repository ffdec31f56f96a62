import Foundation

/// One toggle as the Unleash frontend API (or Unleash Edge / the proxy) evaluates it for the client's context.
///
/// The JSON shape is the frontend API's:
/// `{"name":"checkout","enabled":true,"impressionData":false,"variant":{"name":"blue","enabled":true,
/// "feature_enabled":true,"payload":{"type":"string","value":"#00f"}}}`. A missing `variant` means the
/// `disabled` variant; a missing `feature_enabled` is taken from `enabled`; a missing `impressionData` is `false`.
public struct UnleashToggle: Sendable, Hashable, Codable {
    /// The toggle's name.
    public var name: String
    /// Whether the toggle is on for the context.
    public var enabled: Bool
    /// The variant chosen for the context (`disabled` when there is none).
    public var variant: UnleashVariant
    /// Whether evaluations of this toggle emit ``UnleashClientEvent/impression(_:)`` events.
    public var impressionData: Bool

    /// Creates a toggle.
    /// - Parameters:
    ///   - name: The toggle's name.
    ///   - enabled: Whether it is on.
    ///   - variant: The variant; `nil` means `disabled` with `feature_enabled` equal to `enabled`.
    ///   - impressionData: Whether evaluations emit impression events.
    public init(name: String, enabled: Bool, variant: UnleashVariant? = nil, impressionData: Bool = false) {
        self.name = name
        self.enabled = enabled
        self.variant = variant ?? .disabled(featureEnabled: enabled)
        self.impressionData = impressionData
    }

    private enum CodingKeys: String, CodingKey {
        case name, enabled, variant, impressionData
    }

    private enum VariantKeys: String, CodingKey {
        case name, enabled
        case featureEnabled = "feature_enabled"
        case payload
    }

    /// Decodes a toggle in the frontend API's shape (see the type's discussion for what may be missing).
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when `name` or `enabled` is missing or a field has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        impressionData = try container.decodeIfPresent(Bool.self, forKey: .impressionData) ?? false
        if container.contains(.variant), try !container.decodeNil(forKey: .variant) {
            let variant = try container.nestedContainer(keyedBy: VariantKeys.self, forKey: .variant)
            self.variant = UnleashVariant(
                name: try variant.decode(String.self, forKey: .name),
                enabled: try variant.decodeIfPresent(Bool.self, forKey: .enabled) ?? false,
                featureEnabled: try variant.decodeIfPresent(Bool.self, forKey: .featureEnabled) ?? enabled,
                payload: try variant.decodeIfPresent(UnleashPayload.self, forKey: .payload))
        } else {
            variant = .disabled(featureEnabled: enabled)
        }
    }

    /// Encodes the toggle in the frontend API's shape.
    /// - Parameter encoder: The encoder.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(variant, forKey: .variant)
        try container.encode(impressionData, forKey: .impressionData)
    }
}

/// The body of a frontend API answer: `{"toggles":[…]}`.
struct UnleashTogglesDocument: Codable, Sendable {
    var toggles: [UnleashToggle]

    /// Decodes a body, naming the JSON path of the first problem.
    /// - Parameters:
    ///   - data: The UTF-8 JSON body.
    ///   - source: Where it came from, for messages (`"response"`, a file path).
    /// - Returns: The toggles in the order the server sent them.
    static func decode(_ data: Data, source: String) throws(UnleashClientError) -> [UnleashToggle] {
        do {
            return try JSONDecoder().decode(UnleashTogglesDocument.self, from: data).toggles
        } catch let error as DecodingError {
            throw .invalidResponse("\(source): \(Self.describe(error))")
        } catch {
            throw .invalidResponse("\(source): \(error)")
        }
    }

    /// `$.toggles[2].enabled: expected a boolean` and the like.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            "$" + codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(type), \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type), found null"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): required field missing"
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.localizedDescription
            return
                "\(path(context.codingPath)): \(underlying ?? context.debugDescription) (not valid JSON, or truncated)"
        @unknown default:
            return "\(error)"
        }
    }
}
