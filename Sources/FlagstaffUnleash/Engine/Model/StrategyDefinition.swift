/// One activation strategy of a feature.
struct StrategyDefinition: Decodable, Sendable {
    let name: String
    let parameters: [String: String]
    let constraints: [ConstraintDefinition]
    let segments: [Int]
    let variants: [VariantDefinition]

    private enum CodingKeys: String, CodingKey {
        case name, parameters, constraints, segments, variants
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        let raw = try container.decodeIfPresent([String: LenientString?].self, forKey: .parameters) ?? [:]
        parameters = raw.compactMapValues { $0?.value }
        constraints = try container.decodeIfPresent([ConstraintDefinition].self, forKey: .constraints) ?? []
        segments = try container.decodeIfPresent([Int].self, forKey: .segments) ?? []
        variants = try container.decodeIfPresent([VariantDefinition].self, forKey: .variants) ?? []
    }
}
