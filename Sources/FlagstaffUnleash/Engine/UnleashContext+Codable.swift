import Foundation

extension UnleashContext: Codable {
    private enum CodingKeys: String, CodingKey {
        case userId, sessionId, remoteAddress, currentTime, environment, appName, properties
    }

    /// Decodes the specification's context object.
    ///
    /// String fields also accept numbers and booleans (turned into their JSON text); `null` means absent.
    /// `currentTime` must be an RFC 3339 date-time. Unknown top-level keys are ignored.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` naming the offending key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        userId = try container.decodeIfPresent(LenientString.self, forKey: .userId)?.value
        sessionId = try container.decodeIfPresent(LenientString.self, forKey: .sessionId)?.value
        remoteAddress = try container.decodeIfPresent(LenientString.self, forKey: .remoteAddress)?.value
        environment = try container.decodeIfPresent(LenientString.self, forKey: .environment)?.value
        appName = try container.decodeIfPresent(LenientString.self, forKey: .appName)?.value
        if let text = try container.decodeIfPresent(String.self, forKey: .currentTime) {
            guard let date = RFC3339.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .currentTime, in: container,
                    debugDescription:
                        "expected an RFC 3339 date-time such as 2022-01-29T13:00:00.000Z, found \(text.debugDescription)"
                )
            }
            currentTime = date
        } else {
            currentTime = nil
        }
        let raw = try container.decodeIfPresent([String: LenientString?].self, forKey: .properties) ?? [:]
        properties = raw.compactMapValues { $0?.value }
    }

    /// Encodes the context in the specification's shape, leaving out absent fields; `currentTime` as UTC RFC 3339.
    /// - Parameter encoder: The encoder.
    /// - Throws: Whatever the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(userId, forKey: .userId)
        try container.encodeIfPresent(sessionId, forKey: .sessionId)
        try container.encodeIfPresent(remoteAddress, forKey: .remoteAddress)
        try container.encodeIfPresent(currentTime.map(RFC3339.format), forKey: .currentTime)
        try container.encodeIfPresent(environment, forKey: .environment)
        try container.encodeIfPresent(appName, forKey: .appName)
        if !properties.isEmpty { try container.encode(properties, forKey: .properties) }
    }
}
