/// One feature toggle as the client API sends it.
struct FeatureDefinition: Decodable, Sendable {
    let name: String
    let enabled: Bool
    let description: String?
    let type: String?
    let project: String?
    let stale: Bool?
    let impressionData: Bool?
    let strategies: [StrategyDefinition]
    let variants: [VariantDefinition]
    let dependencies: [DependencyDefinition]

    private enum CodingKeys: String, CodingKey {
        case name, enabled, description, type, project, stale, impressionData, strategies, variants, dependencies
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        enabled = try container.decode(Bool.self, forKey: .enabled)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        project = try container.decodeIfPresent(String.self, forKey: .project)
        stale = try container.decodeIfPresent(Bool.self, forKey: .stale)
        impressionData = try container.decodeIfPresent(Bool.self, forKey: .impressionData)
        strategies = try container.decodeIfPresent([StrategyDefinition].self, forKey: .strategies) ?? []
        variants = try container.decodeIfPresent([VariantDefinition].self, forKey: .variants) ?? []
        dependencies = try container.decodeIfPresent([DependencyDefinition].self, forKey: .dependencies) ?? []
    }
}
