/// One variant of a feature or strategy.
struct VariantDefinition: Decodable, Sendable {
    /// A variant override: pins the variant for listed values of one context field.
    struct Override: Decodable, Sendable {
        let contextName: String
        let values: [String]
    }

    /// A variant payload.
    struct Payload: Decodable, Sendable {
        let type: String
        let value: String

        private enum CodingKeys: String, CodingKey { case type, value }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            type = try container.decode(String.self, forKey: .type)
            value = try container.decode(LenientString.self, forKey: .value).value
        }
    }

    let name: String
    let weight: Int
    let stickiness: String?
    let payload: Payload?
    let overrides: [Override]

    private enum CodingKeys: String, CodingKey { case name, weight, stickiness, payload, overrides }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        weight = try container.decodeIfPresent(Int.self, forKey: .weight) ?? 0
        stickiness = try container.decodeIfPresent(String.self, forKey: .stickiness)
        payload = try container.decodeIfPresent(Payload.self, forKey: .payload)
        overrides = try container.decodeIfPresent([Override].self, forKey: .overrides) ?? []
    }
}
