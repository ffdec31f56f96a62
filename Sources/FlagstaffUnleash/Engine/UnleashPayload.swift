/// A variant's payload: a type (`string`, `json`, `csv`, `number`) and its value, always carried as text.
public struct UnleashPayload: Sendable, Hashable, Codable {
    /// The payload type as Unleash names it.
    public var type: String
    /// The payload value as text (JSON payloads are JSON text).
    public var value: String

    /// Creates a payload.
    /// - Parameters:
    ///   - type: The payload type.
    ///   - value: The value as text.
    public init(type: String, value: String) {
        self.type = type
        self.value = value
    }
}
