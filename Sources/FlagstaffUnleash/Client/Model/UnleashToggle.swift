import Flagstaff
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

/// The body of a frontend API answer: `{"toggles":[…]}` (and the frontend client's snapshot, which adds
/// `"sessionId"`), read in one pass with the package's ``JSONReader``.
enum UnleashTogglesDocument {
    /// Reads a body, naming the JSON path of the first problem.
    /// - Parameters:
    ///   - data: The UTF-8 JSON body.
    ///   - source: Where it came from, for messages (`"response"`, a file path).
    /// - Returns: The toggles in the order the server sent them.
    static func decode(_ data: Data, source: String) throws(UnleashClientError) -> [UnleashToggle] {
        try read(data, source: source).toggles
    }

    /// Reads a body or a snapshot: the toggles and the session id (a snapshot written before session ids were
    /// persisted, and a server's answer, have none).
    static func read(_ data: Data, source: String) throws(UnleashClientError) -> UnleashFrontendSnapshot {
        do throws(ReadFailure) {
            return try JSONReader.withText(data) { reader throws(ReadFailure) in try reader.readToggles() }
        } catch {
            throw .invalidResponse("\(source): \(describe(error))")
        }
    }

    /// `$.toggles[2].enabled: expected a boolean (true or false), found a string` and the like.
    static func describe(_ failure: ReadFailure) -> String {
        guard failure.offset != nil || failure.kind == .encoding else {
            return "\(failure.jsonPath): \(failure.message)"
        }
        return "$: \(failure.detail) (not valid JSON, or truncated)"
    }
}

extension JSONReader {
    private enum TogglesMember: String, CaseIterable { case toggles, sessionId }
    private enum ToggleMember: String, CaseIterable { case name, enabled, variant, impressionData }
    private enum ToggleVariantMember: String, CaseIterable {
        case name, enabled
        case featureEnabled = "feature_enabled"
        case payload
    }
    private enum PayloadMember: String, CaseIterable { case type, value }

    private static let togglesMembers = FieldTable(TogglesMember.self)
    private static let toggleMembers = FieldTable(ToggleMember.self)
    private static let toggleVariantMembers = FieldTable(ToggleVariantMember.self)
    private static let payloadMembers = FieldTable(PayloadMember.self)

    /// `{"toggles":[…],"sessionId":"…"}`: `toggles` is required; a `sessionId` that is not a string is none.
    mutating func readToggles() throws(ReadFailure) -> UnleashFrontendSnapshot {
        var toggles: [UnleashToggle]?
        var sessionID: String?
        try readMembers(Self.togglesMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .toggles:
                toggles = try reader.readRequiredArray { reader throws(ReadFailure) in try reader.readToggle() }
            case .sessionId:
                // Not a string: no session id (as before the reader read both in one pass).
                if reader.byte == UInt8(ascii: "\"") {
                    sessionID = try reader.readString()
                } else {
                    try reader.skipValue()
                }
            }
        }
        return UnleashFrontendSnapshot(toggles: try Self.required(toggles, "toggles"), sessionId: sessionID)
    }

    /// One toggle (see ``UnleashToggle`` for what may be missing).
    private mutating func readToggle() throws(ReadFailure) -> UnleashToggle {
        var name: String?
        var enabled: Bool?
        var impressionData = false
        var variant: (name: String, enabled: Bool, featureEnabled: Bool?, payload: UnleashPayload?)?
        try readMembers(Self.toggleMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .name: name = try reader.readString()
            case .enabled: enabled = try reader.readRequiredBool()
            case .impressionData: impressionData = try reader.readOptionalBool() ?? false
            case .variant: variant = try reader.readNull() ? nil : try reader.readToggleVariant()
            }
        }
        let isEnabled = try Self.required(enabled, "enabled")
        return UnleashToggle(
            name: try Self.required(name, "name"), enabled: isEnabled,
            variant: variant.map { variant in
                UnleashVariant(
                    name: variant.name, enabled: variant.enabled, featureEnabled: variant.featureEnabled ?? isEnabled,
                    payload: variant.payload)
            }, impressionData: impressionData)
    }

    private mutating func readToggleVariant() throws(ReadFailure)
        -> (name: String, enabled: Bool, featureEnabled: Bool?, payload: UnleashPayload?)
    {
        var name: String?
        var enabled = false
        var featureEnabled: Bool?
        var payload: UnleashPayload?
        try readMembers(Self.toggleVariantMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .name: name = try reader.readString()
            case .enabled: enabled = try reader.readOptionalBool() ?? false
            case .featureEnabled: featureEnabled = try reader.readOptionalBool()
            case .payload: payload = try reader.readNull() ? nil : try reader.readTogglePayload()
            }
        }
        return (try Self.required(name, "name"), enabled, featureEnabled, payload)
    }

    private mutating func readTogglePayload() throws(ReadFailure) -> UnleashPayload {
        var type: String?
        var value: String?
        try readMembers(Self.payloadMembers, unknown: .skip) { reader, member throws(ReadFailure) in
            switch member {
            case .type: type = try reader.readString()
            case .value: value = try reader.readString()
            }
        }
        return UnleashPayload(type: try Self.required(type, "type"), value: try Self.required(value, "value"))
    }
}
